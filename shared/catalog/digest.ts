// Bundle integrity: the index pins each bundle by the sha256 of its exact
// bytes (lowercase hex), so a bundle changed after its index was written,
// in transit or on disk, is refused rather than served.
import { createHash } from 'node:crypto';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** True when `bytes` hash to `expected` (64 hex digits, any case). */
export function digestMatches(bytes: Uint8Array, expected: string): boolean {
  return sha256Hex(bytes) === expected.toLowerCase();
}
