// Lint: typescript-eslint with type information, so that floating promises
// (a classic source of swallowed errors in servers) are caught.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'ui/dist/**', 'node_modules/**', 'scratch/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    // Outside both TypeScript projects: the build scripts, Vite's config and the tsx bootstrap.
    files: ['**/*.mjs', 'ui/vite.config.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { document: 'readonly', fetch: 'readonly', EventSource: 'readonly', console: 'readonly', process: 'readonly', URL: 'readonly' },
    },
  },
);
