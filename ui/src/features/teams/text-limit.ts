// The character cap shared by team rules and the user's intro (spec
// "Limits": 4000 each), as the fields show it. Plain functions for node:test.
export const TEXT_CAP = 4000;

const fmt = (n: number) => n.toLocaleString('en-US');

/** "1,234 / 4,000 characters". */
export function countLabel(length: number, cap: number = TEXT_CAP): string {
  return `${fmt(length)} / ${fmt(cap)} characters`;
}

/** Why the text cannot be saved, or null: over the cap says by how much. */
export function overCap(what: string, length: number, cap: number = TEXT_CAP): string | null {
  if (length <= cap) return null;
  const over = length - cap;
  return `${what} can be at most ${fmt(cap)} characters: remove ${fmt(over)} ${over === 1 ? 'character' : 'characters'} to save.`;
}
