// The vault's master key and what is done with it on disk: decoding the
// SVC_SECRETS_MASTER_KEY override, reading and creating `secrets/master.key`,
// sealing values with it, atomic 0600 writes and the permissions check.
// Neither the key nor the raw override ever reaches an error message:
// messages name files, lengths and errno codes only.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { isMissingFile, writeFileAtomic as writeFileAtomicIn, writeTempFile } from '../fs-safe.ts';

export const MASTER_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** One runtime-keys.json entry (and the boot sentinel's sealed part), all base64. */
export const SealedEntry = z.object({ iv: z.string(), tag: z.string(), ciphertext: z.string() });
export type SealedEntry = z.infer<typeof SealedEntry>;

/** AES-256-GCM with a fresh random 96-bit IV per value. */
export function seal(key: Buffer, plaintext: string): SealedEntry {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ciphertext: ciphertext.toString('base64') };
}

/** The plaintext, or null when the key is not the one that sealed the entry or the entry was altered. */
export function unseal(key: Buffer, entry: SealedEntry): string | null {
  const iv = Buffer.from(entry.iv, 'base64');
  const tag = Buffer.from(entry.tag, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(entry.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    // GCM authentication failed: wrong key or tampered data. Failing closed
    // (no value) is the contract; the error itself carries nothing useful.
    return null;
  }
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
// 32 bytes are 43 base64 characters plus one '=' of padding (optional here);
// the standard and URL-safe alphabets are accepted, but not mixed.
const BASE64_KEY = /^(?:[A-Za-z0-9+/]{43}|[A-Za-z0-9_-]{43})=?$/;

/** The 32 bytes of a base64 text, or null when it is not exactly that. */
function decodeBase64Key(text: string): Buffer | null {
  if (!BASE64_KEY.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === MASTER_KEY_BYTES ? bytes : null;
}

/**
 * Decodes an SVC_SECRETS_MASTER_KEY value, trying in order: 64 hex
 * characters, base64 of exactly 32 bytes, a raw 32-character string of 32
 * UTF-8 bytes. Throws otherwise; the message gives the length, never the value.
 */
export function decodeMasterKey(raw: string): Buffer {
  // Whitespace is not part of the hex or base64 alphabets, so trimming cannot
  // change which bytes those forms mean; a raw key is taken exactly as given.
  const text = raw.trim();
  if (HEX_KEY.test(text)) return Buffer.from(text, 'hex');
  const b64 = decodeBase64Key(text);
  if (b64) return b64;
  if (raw.length === MASTER_KEY_BYTES && Buffer.byteLength(raw, 'utf8') === MASTER_KEY_BYTES) {
    return Buffer.from(raw, 'utf8');
  }
  throw new Error(
    `SVC_SECRETS_MASTER_KEY is not a usable key (${raw.length} characters): ` +
      'expected 64 hex characters, base64 of exactly 32 bytes, or a 32-character ASCII string',
  );
}

export type KeyFileRead =
  | { state: 'ok'; key: Buffer }
  | { state: 'absent' }
  /** `reason` names the problem (an errno code or "wrong length"), never the contents. */
  | { state: 'invalid'; reason: string };

const errnoCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/** True when an fs call failed only because the path does not exist. */
export const isMissing = isMissingFile;

/** Reads `master.key` (base64 of 32 bytes). Never throws. */
export function readKeyFile(file: string): KeyFileRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return { state: 'absent' };
    return { state: 'invalid', reason: `unreadable (${errnoCode(err) ?? 'error'})` };
  }
  const key = decodeBase64Key(text.trim());
  return key ? { state: 'ok', key } : { state: 'invalid', reason: 'not base64 of 32 bytes' };
}

/** Whether something exists at `p`. Never throws. */
export function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch (err) {
    // Present but not stat-able (EACCES) counts as present: such a file must
    // never be mistaken for a fresh install and overwritten.
    return !isMissing(err);
  }
}

/** Creates the secrets directory 0700 when it does not exist; an existing one is left as it is. */
export function ensureSecretsDir(dir: string): void {
  if (existsSync(dir)) return; // its mode is the perms check's business, not silently changed here
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // mkdir's mode is narrowed by the umask; this makes it exact
}

/** Replaces `file` atomically (temp file, then rename) with a 0600 file holding `text`. */
export function writeFileAtomic(file: string, text: string): void {
  ensureSecretsDir(dirname(file));
  writeFileAtomicIn(file, text);
}

/**
 * Creates `master.key` with 32 fresh random bytes, unless another process
 * created it first, in which case that key is returned. The file appears
 * complete or not at all: it is written to a temp file and then hard-linked
 * into place, which fails (EEXIST) rather than replacing a key.
 */
export function createKeyFile(file: string): Buffer {
  ensureSecretsDir(dirname(file));
  const key = randomBytes(MASTER_KEY_BYTES);
  const tmp = writeTempFile(file, key.toString('base64'));
  try {
    linkSync(tmp, file);
    return key;
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    const existing = readKeyFile(file);
    if (existing.state === 'ok') return existing.key;
    throw new Error(`master key file ${file} is ${existing.state === 'invalid' ? existing.reason : 'missing'}`);
  } finally {
    rmSync(tmp, { force: true });
  }
}

export interface VaultPerms {
  skipped: boolean;
  reason?: string;
  /** One line per file whose mode is not the expected one, e.g. "…/master.key is 0644, expected 0600". */
  problems: string[];
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * The `vaultPerms` health check: the secrets directory must be 0700, and
 * master.key, runtime-keys.json and each of `extraFiles` 0600 when present.
 * Skipped on Windows (no POSIX modes) and on a fresh install (no secrets dir).
 */
export function checkVaultPerms(
  paths: { secretsDir: string; masterKeyFile: string; runtimeKeysFile: string },
  extraFiles: readonly string[],
  platform: NodeJS.Platform,
): VaultPerms {
  if (platform === 'win32') return { skipped: true, reason: 'POSIX permissions do not apply on Windows', problems: [] };
  if (!existsSync(paths.secretsDir)) return { skipped: true, reason: 'fresh install: no secrets directory yet', problems: [] };
  const problems: string[] = [];
  const expect = (path: string, mode: number) => {
    let actual: number;
    try {
      actual = statSync(path).mode & 0o777;
    } catch (err) {
      if (isMissing(err)) return; // files are checked only when present
      problems.push(`${path} cannot be checked (${errnoCode(err) ?? 'error'})`);
      return;
    }
    if (actual !== mode) problems.push(`${path} is ${octal(actual)}, expected ${octal(mode)}`);
  };
  expect(paths.secretsDir, 0o700);
  for (const file of [paths.masterKeyFile, paths.runtimeKeysFile, ...extraFiles]) expect(file, 0o600);
  return { problems, skipped: false };
}
