// Lint: typescript-eslint with type information, so that floating promises
// (a classic source of swallowed errors in servers) are caught.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** ui/src's import rules, one block per layer (no-restricted-imports keeps one option set per file, so each block lists all of its own). */
function uiLayers() {
  const pattern = (regex, message) => ({ regex, message });
  const apiClient = pattern(
    '(^|/)api/client(\\.ts)?$',
    'Only ui/src/api/ calls the fetch client: use the hooks of ui/src/api/<resource>.ts (add one there for a new request).',
  );
  const sharedUp = pattern('^(\\.\\./)+(features|pages|app)(/|$)', 'The shared layer (api, components, lib) imports nothing from features, pages or app.');
  const featureUp = pattern('^(\\.\\./)+(pages|app)(/|$)', 'A feature imports nothing from pages or app.');
  const otherFeature = pattern(
    '^\\.\\./(?!\\.\\./)|^\\.\\./\\.\\./features/',
    "A feature imports only its own folder and the shared layer (api, components, lib), never another feature's files.",
  );
  const pageUp = pattern('^(\\.\\./)+app(/|$)', 'A page imports nothing from app.');
  const otherPage = pattern('^\\.\\./(?!\\.\\./)', "A page imports only its own folder, features and the shared layer, never another page's files.");
  const block = (files, ...patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
  return [
    block(['ui/src/api/**/*.{ts,tsx}'], sharedUp),
    block(['ui/src/components/**/*.{ts,tsx}', 'ui/src/lib/**/*.{ts,tsx}'], sharedUp, apiClient),
    block(['ui/src/features/**/*.{ts,tsx}'], featureUp, otherFeature, apiClient),
    block(['ui/src/pages/**/*.{ts,tsx}'], pageUp, otherPage, apiClient),
    block(['ui/src/app/**/*.{ts,tsx}', 'ui/src/*.{ts,tsx}'], apiClient),
  ];
}

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
  // The dashboard's layers (docs/dashboard.md "Where things live"). Imports
  // point one way: the shared layer (api, components, lib) imports none of
  // features, pages and app; a feature imports only its own folder and the
  // shared layer; a page imports its own folder, features and the shared
  // layer, never app or another page. Only ui/src/api/ imports the fetch
  // client: everything else calls a resource module's hooks. The restricted
  // imports are relative paths, so each rule is a regex over the specifier.
  ...uiLayers(),
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
