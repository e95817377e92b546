// Large JSON answers (a 500-row feed is ~200 KB, a 5,000-event trace ~2 MB)
// built and sent as parts rather than one string or Buffer. V8 puts a string
// over 128 KB in the large-object space and counts a Buffer's bytes as
// external memory; both are charged to the old generation, so at a thousand
// feed reads a second the server ran a full mark-compact every ~60 requests
// and those pauses were the feed's p99 (npm run bench -- obs-reads). Parts
// of at most PART_CHARS characters are ordinary young-generation strings that
// die in the next scavenge; the socket copies them out without joining them
// (supervisor/http/json-parts-reply.ts).

/** The body is the concatenation of the parts, in order. */
export type JsonParts = string[];

/**
 * Target size of one part, in characters (a two-byte string takes 64 KB, half
 * of V8's largest young object). A single row longer than this is its own part.
 */
export const PART_CHARS = 32_768;

export interface PartsJoiner {
  /** One value already serialized as JSON, the next item of the array. */
  add(serialized: string): void;
  /** Appends what is still held; call once, after the last add. */
  end(): void;
}

/**
 * Appends values already serialized as JSON as the items of an array: what
 * they add to `out` is their comma-joined text (the array without its
 * brackets), joined into parts of about PART_CHARS characters as they come.
 */
export function partsJoiner(out: JsonParts): PartsJoiner {
  let batch: string[] = [];
  let chars = 0;
  let first = true;
  const flush = () => {
    if (batch.length === 0) return;
    if (!first) out.push(',');
    out.push(batch.join(','));
    first = false;
    batch = [];
    chars = 0;
  };
  return {
    add(serialized) {
      batch.push(serialized);
      chars += serialized.length + 1;
      if (chars >= PART_CHARS) flush();
    },
    end: flush,
  };
}

/** Appends values already serialized as JSON as the items of an array (partsJoiner, all at once). */
export function pushSerialized(out: JsonParts, values: readonly string[]): void {
  const joiner = partsJoiner(out);
  for (const v of values) joiner.add(v);
  joiner.end();
}

/**
 * Appends the items of a JSON array, serialized: what they add is
 * JSON.stringify(items) without its brackets. For the rare answers built
 * from objects (rows stored under other masking rules).
 */
export function pushArrayItems(out: JsonParts, items: readonly unknown[]): void {
  pushSerialized(out, items.map((item) => JSON.stringify(item)));
}

/** Byte length of the body the parts make, as UTF-8. */
export function partsByteLength(parts: readonly string[]): number {
  let n = 0;
  for (const p of parts) n += Buffer.byteLength(p, 'utf8');
  return n;
}
