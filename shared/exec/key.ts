// The revoke key of an allowlist entry: a content fingerprint of pattern, arg
// pattern and source, the same triple the gateway itself treats as one rule.
// Ids are not used because the gateway assigns and may re-assign them; the
// content is what an operator approved.
import { createHash } from 'node:crypto';
import type { AllowlistEntry } from './schemas.ts';

export const KEY_HEX_LENGTH = 16;

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** sha256 over `JSON.stringify([pattern, argPattern ?? null, source ?? null])`, first 16 hex characters. */
export function entryKey(entry: Pick<AllowlistEntry, 'pattern' | 'argPattern' | 'source'>): string {
  return sha256Hex(JSON.stringify([entry.pattern, entry.argPattern ?? null, entry.source ?? null])).slice(0, KEY_HEX_LENGTH);
}

/**
 * The gateway's companion marker for a command approved with "Always" on a
 * node is a row `=node-command:` + the first 16 hex of sha256(trimmed
 * command), minted in the same decision as the pattern rows. The gateway does
 * not store a link between them, so a marker is a companion of a pattern row
 * when it names a command that row was approved for (`commandText`, kept by
 * older documents) or last matched (`lastUsedCommand`).
 */
export function nodeMarkerPatterns(entry: Pick<AllowlistEntry, 'commandText' | 'lastUsedCommand'>): string[] {
  const out: string[] = [];
  for (const command of [entry.commandText, entry.lastUsedCommand]) {
    const text = command?.trim();
    if (text) out.push(`=node-command:${sha256Hex(text).slice(0, 16)}`);
  }
  return out;
}

export const isNodeMarker = (entry: Pick<AllowlistEntry, 'pattern'>) => entry.pattern.startsWith('=node-command:');
