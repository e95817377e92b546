// Rewrites the generated block of docs/configuration.md from the settings
// table (shared/config-settings.ts): `node --import tsx test/unit/write-configuration-doc.ts`.
// test/unit/configuration-doc.test.ts fails until the page matches.
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTING_ENTRIES } from '../../shared/config.ts';
import { configurationDocBlock, withDocBlock } from '../../shared/config-doc.ts';

const page = new URL('../../docs/configuration.md', import.meta.url);
const before = readFileSync(page, 'utf8');
const after = withDocBlock(before, configurationDocBlock(SETTING_ENTRIES.map(([, s]) => s)));
writeFileSync(page, after);
console.log(after === before ? 'docs/configuration.md: already up to date' : 'docs/configuration.md: generated block rewritten');
