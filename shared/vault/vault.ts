// The secrets vault (`<svcHome>/secrets/`): runtime keys sealed with
// AES-256-GCM under the master key, one entry per env-var name in
// runtime-keys.json. Reads fail closed: a wrong, rotated or lost key, a
// tampered entry or a corrupt file reads as "no value", never as garbage and
// never as a throw. Plaintext and key never reach a log or an error message.
import { readFileSync, statSync } from 'node:fs';
import type { SvcPaths } from '../paths.ts';
import {
  checkVaultPerms, createKeyFile, decodeMasterKey, exists, isMissing, readKeyFile, seal, SealedEntry, unseal, writeFileAtomic,
  type VaultPerms,
} from './master-key.ts';

const SENTINEL_PLAINTEXT = 'svc boot sentinel v1';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type StoreRead = { kind: 'absent' } | { kind: 'corrupt'; error: Error } | { kind: 'ok'; entries: Map<string, SealedEntry> };

/** Reads runtime-keys.json. Never throws; errors name the file, never its contents. */
function readStore(file: string): StoreRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return { kind: 'absent' };
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return { kind: 'corrupt', error: new Error(`vault file ${file} is unreadable (${code})`) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // V8's message quotes the input (ciphertext, but still file contents).
    return { kind: 'corrupt', error: new Error(`vault file ${file} is not valid JSON`) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { kind: 'corrupt', error: new Error(`vault file ${file} does not hold a JSON object`) };
  }
  // A Map, so that a name such as `__proto__` stays an ordinary entry.
  const entries = new Map<string, SealedEntry>();
  for (const [name, value] of Object.entries(parsed)) {
    const entry = SealedEntry.safeParse(value);
    if (!entry.success) return { kind: 'corrupt', error: new Error(`vault file ${file} has a malformed entry`) };
    entries.set(name, entry.data);
  }
  return { kind: 'ok', entries };
}

/** What a lookup found, so a caller can tell a corrupt file or a wrong key from an absent value. */
export type VaultLookup =
  | { status: 'found'; value: string }
  | { status: 'missing' }
  | { status: 'corrupt' }
  /** The entry exists but does not decrypt: wrong, rotated or lost key, or tampered data. */
  | { status: 'locked' };

export type SentinelState = 'ok' | 'absent' | 'mismatch';

export interface Vault {
  /** Seals and stores `value` under an env-var name. Creates the directory and key on first use. */
  set(name: string, value: string): void;
  /** The stored value, or null (absent, corrupt file, undecryptable). Never throws. */
  get(name: string): string | null;
  lookup(name: string): VaultLookup;
  /** Removes a name; false when it was not stored. Throws on a corrupt file. */
  delete(name: string): boolean;
  /** Stored names, sorted; [] when the file is absent or corrupt. */
  list(): string[];
  ensureBootSentinel(): void;
  checkBootSentinel(): { state: SentinelState };
  vaultPresent(): boolean;
  masterKeyOk(): boolean;
  checkVaultPerms(extraFiles?: string[]): VaultPerms;
}

export type VaultPaths = Pick<SvcPaths, 'secretsDir' | 'masterKeyFile' | 'runtimeKeysFile' | 'bootSentinelFile'>;

export interface VaultOptions {
  paths: VaultPaths;
  /** SVC_SECRETS_MASTER_KEY: replaces master.key when set. */
  masterKeyOverride: string | null;
  /** Told (message names the file only) when runtime-keys.json is corrupt, so the caller can log it. */
  onCorrupt?: (err: Error) => void;
  /** For tests of the Windows path; defaults to process.platform. */
  platform?: NodeJS.Platform;
}

export function createVault(opts: VaultOptions): Vault {
  const { paths, masterKeyOverride } = opts;
  let cachedKey: Buffer | null = null;

  /** Encrypted data exists, so a fresh key would orphan it. */
  const hasSealedData = () => exists(paths.runtimeKeysFile) || exists(paths.bootSentinelFile);

  /** The current key without creating one; null when none can be loaded. */
  function currentKey(): Buffer | null {
    if (cachedKey) return cachedKey;
    if (masterKeyOverride !== null) {
      try {
        cachedKey = decodeMasterKey(masterKeyOverride);
      } catch {
        // An invalid override: reads fail closed, masterKeyOk() reports it and
        // writes rethrow it (with a message free of the value) from keyForWrite().
        return null;
      }
      return cachedKey;
    }
    const read = readKeyFile(paths.masterKeyFile);
    if (read.state === 'ok') cachedKey = read.key;
    return cachedKey;
  }

  /** The key for sealing; created on first use. Throws rather than orphan existing secrets. */
  function keyForWrite(): Buffer {
    if (masterKeyOverride !== null) return (cachedKey ??= decodeMasterKey(masterKeyOverride));
    const key = currentKey();
    if (key) return key;
    const read = readKeyFile(paths.masterKeyFile);
    if (read.state === 'invalid') throw new Error(`master key file ${paths.masterKeyFile} is ${read.reason}`);
    if (hasSealedData()) {
      throw new Error(
        `master key file ${paths.masterKeyFile} is missing but sealed secrets exist: restore it, set ` +
          'SVC_SECRETS_MASTER_KEY, or remove runtime-keys.json and boot-sentinel.json to start over',
      );
    }
    cachedKey = createKeyFile(paths.masterKeyFile);
    return cachedKey;
  }

  function storeForWrite(): Map<string, SealedEntry> {
    const store = readStore(paths.runtimeKeysFile);
    // Replacing a corrupt file would destroy ciphertext that may still be recoverable by hand.
    if (store.kind === 'corrupt') throw store.error;
    return store.kind === 'ok' ? store.entries : new Map();
  }

  // The model endpoint reads a key on every call: the file is parsed, and its
  // entries opened, again only when it changed. svc's own writes drop the
  // cache; another process's (the CLI) replace the file, so its inode, size
  // or times differ.
  let cache: { sig: string; store: StoreRead; opened: Map<string, string> } | null = null;
  const fileSignature = (): string | null => {
    try {
      const st = statSync(paths.runtimeKeysFile, { bigint: true });
      return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch (err) {
      // Absent reads as absent below; any other stat failure is read (and reported) uncached.
      return isMissing(err) ? 'absent' : null;
    }
  };
  const storeNow = (): { store: StoreRead; opened: Map<string, string> } => {
    const sig = fileSignature();
    if (sig === null) return { store: readStore(paths.runtimeKeysFile), opened: new Map() };
    if (cache?.sig !== sig) cache = { sig, store: readStore(paths.runtimeKeysFile), opened: new Map() };
    return cache;
  };

  const writeStore = (entries: Map<string, SealedEntry>) => {
    cache = null;
    writeFileAtomic(paths.runtimeKeysFile, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
  };

  function lookup(name: string): VaultLookup {
    const { store, opened } = storeNow();
    if (store.kind === 'corrupt') {
      opts.onCorrupt?.(store.error);
      return { status: 'corrupt' };
    }
    const entry = store.kind === 'ok' ? store.entries.get(name) : undefined;
    if (!entry) return { status: 'missing' };
    const seen = opened.get(name);
    if (seen !== undefined) return { status: 'found', value: seen };
    const key = currentKey();
    const value = key ? unseal(key, entry) : null;
    if (value === null) return { status: 'locked' };
    opened.set(name, value);
    return { status: 'found', value };
  }

  function ensureBootSentinel(): void {
    if (exists(paths.bootSentinelFile)) return; // written once; rewriting would hide a key change
    const key = keyForWrite();
    const sentinel = { version: 1, createdAt: new Date().toISOString(), ...seal(key, SENTINEL_PLAINTEXT) };
    writeFileAtomic(paths.bootSentinelFile, `${JSON.stringify(sentinel, null, 2)}\n`);
  }

  function checkBootSentinel(): { state: SentinelState } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(paths.bootSentinelFile, 'utf8'));
    } catch (err) {
      // Absent is the first boot; anything else (unreadable, not JSON) cannot
      // prove the key, which is what a mismatch reports.
      return { state: isMissing(err) ? 'absent' : 'mismatch' };
    }
    const entry = SealedEntry.safeParse(parsed);
    const key = currentKey();
    const ok = entry.success && key !== null && unseal(key, entry.data) === SENTINEL_PLAINTEXT;
    return { state: ok ? 'ok' : 'mismatch' };
  }

  function checkName(name: string): void {
    if (!ENV_NAME.test(name)) throw new Error('vault names must be environment variable names ([A-Za-z_][A-Za-z0-9_]*)');
  }

  return {
    set(name, value) {
      checkName(name);
      const key = keyForWrite();
      const entries = storeForWrite();
      entries.set(name, seal(key, value));
      writeStore(entries);
      ensureBootSentinel();
    },
    get: (name) => {
      const r = lookup(name);
      return r.status === 'found' ? r.value : null;
    },
    lookup,
    delete(name) {
      const entries = storeForWrite();
      if (!entries.delete(name)) return false;
      writeStore(entries);
      return true;
    },
    list() {
      const store = readStore(paths.runtimeKeysFile);
      if (store.kind === 'corrupt') opts.onCorrupt?.(store.error);
      return store.kind === 'ok' ? [...store.entries.keys()].sort() : [];
    },
    ensureBootSentinel,
    checkBootSentinel,
    vaultPresent: () => exists(paths.secretsDir),
    masterKeyOk() {
      if (currentKey()) return true;
      // No key yet is fine on a fresh vault (one is made on first use); with
      // sealed data, or an invalid override or key file, it is a failure.
      return masterKeyOverride === null && readKeyFile(paths.masterKeyFile).state === 'absent' && !hasSealedData();
    },
    checkVaultPerms: (extraFiles = []) => checkVaultPerms(paths, extraFiles, opts.platform ?? process.platform),
  };
}

export type RuntimeKeySource = 'env' | 'vault' | 'gateway-env';

export interface RuntimeKeyLookups {
  /** The process environment (config.ts's lookupEnv). */
  env: (name: string) => string | undefined;
  vault: Pick<Vault, 'get'>;
  /** The gateway state directory's .env; only read when the first two have no value. */
  readGatewayEnv: () => Record<string, string>;
}

/** Resolves a runtime key: process environment, then the vault, then the gateway's .env. Empty counts as unset. */
export function resolveRuntimeKey(
  name: string,
  { env, vault, readGatewayEnv }: RuntimeKeyLookups,
): { value: string; source: RuntimeKeySource } | null {
  const fromEnv = env(name);
  if (fromEnv) return { value: fromEnv, source: 'env' };
  const fromVault = vault.get(name);
  if (fromVault) return { value: fromVault, source: 'vault' };
  const gatewayEnv = readGatewayEnv();
  // Own keys only: a name like `constructor` must not resolve to Object.prototype's.
  const fromGateway = Object.hasOwn(gatewayEnv, name) ? gatewayEnv[name] : undefined;
  return fromGateway ? { value: fromGateway, source: 'gateway-env' } : null;
}
