// Sources on disk: the built-in pack shipped with svc and the user's local
// folder (`SVC_CATALOG_DIR`). Each is a folder holding `index.json`; bundle
// refs are paths relative to that folder. The built-in folder is svc's own and
// its refs must stay inside it; a local index may also name an absolute path
// or an http(s) URL, since the user chose to put it there.
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isMissingFile } from '../fs-safe.ts';
import type { SourceReader } from './load-source.ts';
import { remoteSource } from './remote-source.ts';
import { readFileCapped } from './read-capped.ts';
import { CATALOG_LIMITS } from './schemas.ts';
import type { SourceKind } from './types.ts';

export const INDEX_FILE = 'index.json';

const isHttp = (ref: string) => /^https?:\/\//i.test(ref);

function insideFolder(dir: string, ref: string): string {
  const path = resolve(dir, ref);
  const rel = relative(dir, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`bundle path ${ref} leaves the catalog folder`);
  return path;
}

export function folderSource(kind: Exclude<SourceKind, 'remote'>, dir: string, location = dir): SourceReader {
  return {
    kind,
    location,
    readIndex: () => readFileCapped(join(dir, INDEX_FILE), CATALOG_LIMITS.indexBytes, 'index'),
    async readBundle(ref) {
      // The remote reader applies the same http(s)-only, size and timeout rules as for a remote index.
      if (kind === 'local' && isHttp(ref)) return remoteSource(ref).readBundle(ref);
      const path = kind === 'local' && isAbsolute(ref) ? ref : insideFolder(dir, ref);
      return readFileCapped(path, CATALOG_LIMITS.bundleBytes, 'bundle');
    },
  };
}

/** True when the folder holds an index: a missing folder or index is no source at all, not a failure. */
export async function hasIndex(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, INDEX_FILE))).isFile();
  } catch (err) {
    if (isMissingFile(err)) return false;
    // Present but unreadable (permissions): report it through the normal read, which will fail loudly.
    return true;
  }
}
