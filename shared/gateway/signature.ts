// The device proof in a gateway `connect` (signature v3): the fields below
// joined with `|`, UTF-8, signed with the device's Ed25519 key, base64url.
//   v3|deviceId|client.id|client.mode|role|scopes(,)|signedAt|token|nonce|platform|deviceFamily
// platform and deviceFamily are trimmed and lowercased; scopes keep the order
// in which they are sent; the token is whatever `auth.token` carries ('' if none).
import { sign } from 'node:crypto';
import type { DeviceIdentity } from './device-identity.ts';

export interface SignedFields {
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  signedAt: number;
  token: string;
  nonce: string;
  platform: string;
  deviceFamily?: string;
}

export interface DeviceProof {
  id: string;
  publicKey: string;
  signature: string;
  signedAt: number;
  nonce: string;
}

export function signaturePayloadV3(deviceId: string, f: SignedFields): string {
  return [
    'v3',
    deviceId,
    f.clientId,
    f.clientMode,
    f.role,
    f.scopes.join(','),
    String(f.signedAt),
    f.token,
    f.nonce,
    f.platform.trim().toLowerCase(),
    (f.deviceFamily ?? '').trim().toLowerCase(),
  ].join('|');
}

export function signConnect(identity: DeviceIdentity, f: SignedFields): DeviceProof {
  const payload = signaturePayloadV3(identity.deviceId, f);
  return {
    id: identity.deviceId,
    publicKey: identity.publicKey,
    signature: sign(null, Buffer.from(payload, 'utf8'), identity.privateKey).toString('base64url'),
    signedAt: f.signedAt,
    nonce: f.nonce,
  };
}
