#!/usr/bin/env node
// Rewrites the `sha256` of every pack in a catalog folder's index.json from
// the bundle bytes on disk. Run it after editing a bundle:
//
//   node catalog/rehash.mjs                 # the built-in pack (catalog/builtin)
//   node catalog/rehash.mjs ~/.svc/catalog  # any local catalog folder
//   node catalog/rehash.mjs --check         # exit 1 when a digest is stale, write nothing
//
// Plain Node, no build step: svc itself never runs this, it only verifies the
// digests at run time (shared/catalog) and refuses a pack whose digest is stale.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const check = args.includes('--check');
const folderArg = args.find((a) => a !== '--check');
const folder = resolve(folderArg ?? join(dirname(fileURLToPath(import.meta.url)), 'builtin'));
const indexPath = join(folder, 'index.json');

const index = JSON.parse(readFileSync(indexPath, 'utf8'));
if (!Array.isArray(index.packs)) {
  console.error(`${indexPath}: no packs array`);
  process.exit(1);
}

let stale = 0;
for (const pack of index.packs) {
  if (/^https?:\/\//i.test(pack.bundle)) {
    console.log(`${pack.id}: remote bundle, skipped`);
    continue;
  }
  const bundlePath = isAbsolute(pack.bundle) ? pack.bundle : join(folder, pack.bundle);
  const digest = createHash('sha256').update(readFileSync(bundlePath)).digest('hex');
  if (pack.sha256 === digest) {
    console.log(`${pack.id}: ok ${digest}`);
    continue;
  }
  stale++;
  console.log(`${pack.id}: ${check ? 'stale' : 'updated'} ${pack.sha256 ?? '(none)'} -> ${digest}`);
  pack.sha256 = digest;
}

if (check) process.exit(stale > 0 ? 1 : 0);
if (stale > 0) writeFileSync(indexPath, `${JSON.stringify(index, null, 2)}\n`);
