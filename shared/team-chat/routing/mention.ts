// Who a message opens with (spec "Teams", POST chat: a leading mention only).
// No imports: the dashboard's composer uses this same rule to say who a
// message will reach.

/**
 * The candidate a text opens with (`@<name>` then whitespace or the end,
 * case-insensitive), the longest name winning ("@Ann Lee hi" picks "Ann Lee"
 * over "Ann"); null when the text does not start with a mention of one.
 */
export function leadingMention<T extends { name: string }>(text: string, candidates: readonly T[]): T | null {
  if (!text.startsWith('@')) return null;
  const rest = text.slice(1).toLowerCase();
  let best: T | null = null;
  for (const a of candidates) {
    const name = a.name.toLowerCase();
    if (name === '' || !rest.startsWith(name)) continue;
    const after = rest.charAt(name.length);
    if (after !== '' && !/\s/.test(after)) continue;
    if (!best || a.name.length > best.name.length) best = a;
  }
  return best;
}
