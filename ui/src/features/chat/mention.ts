// Mentions in the composer. Who a message reaches is the server's own rule
// (shared/team-chat/routing/mention.ts `leadingMention`, imported as is: it has no
// imports of its own). While the person types the leading `@…` the composer
// offers names: `mentionQuery` says what has been typed so far,
// `mentionOptions` which names fit, `applyMention` puts the picked name in.
export { leadingMention } from '../../../../shared/team-chat/routing/mention.ts';

export interface Mentionable {
  id: string;
  name: string;
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
