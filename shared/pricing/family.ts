// A model's family: the names a model answers to, from the most specific to
// the family it is a pinned snapshot or alias of. One rule for everything that
// matches a model by name (prices, per-model budgets), so `gpt-4o-2024-08-06`
// and `openai/gpt-4o-2024-11-20` are priced, and counted, as `gpt-4o`.
//
// Names are trimmed and lowercased and lose their `<provider>/` prefix (up to
// the last slash: `openrouter/openai/gpt-4o` is `gpt-4o`). Then, while the
// name ends in one, a version suffix is dropped:
//   `-2024-08-06`, `-20241022`, `@20250929` (a dated snapshot);
//   `-05-20` (a month-day preview date), `-0613`, `-2411` (MMDD or YYMM);
//   `-001`..`-009` (a pinned revision, as Gemini numbers them);
//   `-latest`, `:latest` (an alias for the newest snapshot, Ollama's default tag).
// Only these: a suffix that names a different model is never dropped
// (`gpt-4o-mini` is not `gpt-4o`, `o1-pro` is not `o1`, `-preview`, `-mini`,
// `:free` or `:8b` stay), and a name never shrinks to nothing or to digits.

const VERSION_SUFFIX = /(?:[-@]20\d{2}-?[01]\d-?[0-3]\d|-[01]\d-[0-3]\d|-\d{4}|-00[1-9]|[-:]latest)$/;

/** The bare model name: trimmed, lowercased, without its `<provider>/` prefix. */
export function bareModel(model: string): string {
  const name = model.trim().toLowerCase();
  return name.slice(name.lastIndexOf('/') + 1);
}

/** Candidate names for `model`, most specific first, ending with its family; [] for an empty name. */
export function modelFamilies(model: string): string[] {
  let name = bareModel(model);
  if (name === '') return [];
  const out = [name];
  for (;;) {
    const m = VERSION_SUFFIX.exec(name);
    if (!m) return out;
    const shorter = name.slice(0, m.index);
    // A stripped name must still name something: `2024-08-06` or `-latest` alone is not a family.
    if (!/[a-z]/.test(shorter) || shorter.endsWith('-')) return out;
    name = shorter;
    out.push(name);
  }
}

/** Whether `model` is `family` or one of its snapshots/aliases (both spelled any way modelFamilies accepts). */
export function inModelFamily(model: string, family: string): boolean {
  const want = bareModel(family);
  return want !== '' && modelFamilies(model).includes(want);
}
