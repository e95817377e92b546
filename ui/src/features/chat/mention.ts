// Mentions in the composer. The server's rule (shared/team-chat/target.ts
// `leadingMention`): a message goes to the agent whose name it opens with,
// `@<name>` followed by whitespace or the end, case-insensitive, the longest
// name winning; a mention anywhere else is not one. The UI applies the same
// rule to say who a message will reach, and offers names while the person
// types the leading `@…` (the combobox): `mentionQuery` says what has been
// typed so far, `mentionOptions` which names fit, `applyMention` puts the
// picked name in. test/unit/ui-chat.test.ts holds this copy to the server's.

export interface Mentionable {
  id: string;
  name: string;
}

/** The agent `text` opens with a mention of, or null (same rule as the server's). */
export function leadingMention<T extends Mentionable>(text: string, candidates: readonly T[]): T | null {
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

/**
 * What the person is typing as a leading mention: the text between the
 * opening `@` and the caret, or null when the caret is not inside one (the
 * text does not start with `@`, or a line break lies before the caret).
 */
export function mentionQuery(text: string, caret: number): string | null {
  if (!text.startsWith('@') || caret < 1) return null;
  const query = text.slice(1, caret);
  return /[\r\n]/.test(query) ? null : query;
}

/** The candidates whose name starts with `query` (case-insensitive), in roster order; none once a whole name and a space are typed. */
export function mentionOptions<T extends Mentionable>(query: string, candidates: readonly T[]): T[] {
  const q = query.toLowerCase();
  return candidates.filter((a) => a.name !== '' && a.name.toLowerCase().startsWith(q));
}

/** `@<name> ` in place of the leading `@<query>` before the caret; the rest of the text kept. Returns the text and the caret after the name. */
export function applyMention(text: string, caret: number, name: string): { text: string; caret: number } {
  const head = `@${name} `;
  const rest = text.slice(caret).replace(/^[ \t]+/, '');
  return { text: head + rest, caret: head.length };
}
