// svc's device identity towards the gateway: one Ed25519 keypair, created on
// first use and kept in `<state_dir>/proxy-device-identity.json` (0600, in a
// 0700 folder). The gateway pairs *devices*, so the key must survive restarts:
// a new key would be a new, unpaired device. Created once: the file is opened
// with O_EXCL, so of two processes racing to create it, one writes and the
// other reads what the first wrote.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { isMissingFile, writeTempFile } from '../fs-safe.ts';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface DeviceIdentity {
  /** sha256 of the raw public key, 64 hex characters (what the gateway calls the device id). */
  deviceId: string;
  /** The raw 32-byte public key, base64url. */
  publicKey: string;
  privateKey: KeyObject;
}

const IdentityFile = z.object({
  version: z.literal(1),
  deviceId: z.string().regex(/^[0-9a-f]{64}$/),
  publicKey: z.string(),
  privateKeyPem: z.string().startsWith('-----BEGIN PRIVATE KEY-----'),
  createdAt: z.number(),
});

function rawPublicKey(pub: KeyObject): Buffer {
  const der = pub.export({ format: 'der', type: 'spki' });
  if (der.length !== SPKI_ED25519_PREFIX.length + 32 || !der.subarray(0, SPKI_ED25519_PREFIX.length).equals(SPKI_ED25519_PREFIX)) {
    throw new Error('device identity: not an Ed25519 public key');
  }
  return der.subarray(SPKI_ED25519_PREFIX.length);
}

export function identityFromPrivateKey(privateKey: KeyObject): DeviceIdentity {
  const raw = rawPublicKey(createPublicKey(privateKey));
  return {
    deviceId: createHash('sha256').update(raw).digest('hex'),
    publicKey: raw.toString('base64url'),
    privateKey,
  };
}

function parseIdentity(file: string, text: string): DeviceIdentity {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The file holds a private key: the parse error (which quotes input) is not passed on.
    throw new Error(`device identity ${file} is not valid JSON`);
  }
  const parsed = IdentityFile.safeParse(json);
  if (!parsed.success) throw new Error(`device identity ${file} is not a svc device identity`);
  const identity = identityFromPrivateKey(createPrivateKey(parsed.data.privateKeyPem));
  if (identity.deviceId !== parsed.data.deviceId) throw new Error(`device identity ${file}: device id does not match its key`);
  return identity;
}

/**
 * Loads the identity, creating it on first use. A file that exists but cannot
 * be used is an error, never silently replaced: replacing it would unpair svc.
 */
export function loadOrCreateDeviceIdentity(file: string, now: () => number = Date.now): DeviceIdentity {
  try {
    return parseIdentity(file, readFileSync(file, 'utf8'));
  } catch (err) {
    if (!isMissingFile(err)) throw err;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const identity = identityFromPrivateKey(privateKey);
  const body = {
    version: 1 as const,
    deviceId: identity.deviceId,
    publicKey: identity.publicKey,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    createdAt: now(),
  };
  // Written complete to a temp file, then hard-linked into place: link()
  // fails with EEXIST when the file exists, so creation is atomic and a
  // racing creator's key wins instead of being overwritten (rename would).
  const tmp = writeTempFile(file, `${JSON.stringify(body, null, 2)}\n`);
  try {
    linkSync(tmp, file);
    return identity;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return parseIdentity(file, readFileSync(file, 'utf8'));
  } finally {
    rmSync(tmp, { force: true });
  }
}
