// Turns a user's free text into an FTS5 MATCH expression that cannot carry
// FTS5 syntax: only runs of letters and digits survive, each one becomes a
// double-quoted string (so AND, OR, NOT, NEAR, column filters, `*`, `^` and
// parentheses in the input are plain words or dropped), and the terms are
// OR-ed so that bm25 ranks rows matching more of them first. Text without a
// single word gives null: the caller returns no hits rather than asking.

export const FTS_TERMS_MAX = 32;
export const FTS_TERM_MAX = 64;

// What unicode61 keeps as token characters: letters, digits, marks, private use.
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The distinct words of `text`, lower-cased, at most FTS_TERMS_MAX of at most FTS_TERM_MAX code points. */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const cps = Array.from(m[0].toLowerCase());
    // A run of marks alone has no base character; unicode61 drops it anyway.
    if (!cps.some((c) => /[\p{L}\p{N}\p{Co}]/u.test(c))) continue;
    seen.add(cps.slice(0, FTS_TERM_MAX).join(''));
    if (seen.size >= FTS_TERMS_MAX) break;
  }
  return [...seen];
}

/** An FTS5 MATCH expression for `text`, or null when it has no words. */
export function buildFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  // The terms hold no `"` (only letters, digits and marks), so quoting is complete.
  return terms.map((t) => `"${t}"`).join(' OR ');
}
