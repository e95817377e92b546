// The hidden-element half of the `hidden-html-comment` scan rule, as one
// linear pass over the tags (the comment half stays a regular expression in
// injection-rules.ts). As a single regular expression this half was
// quadratic: the attribute run of an open tag was searched for a hidden
// attribute and then for its `>` from every candidate split, so an unclosed
// tag full of `display:none` took half a second at 80 KB and found nothing.
//
// The pass finds each tag once (`<` + a letter, its name, then its attribute
// run up to the first `<` or `>`), tests the run for a hidden attribute once,
// and for a closed hidden tag searches what follows it, at most
// CONTENT_WINDOW characters and never past the next `</`, `<!--` or hidden
// tag, for instruction-like words. Tag runs are disjoint and each content
// window ends where the next hidden tag begins, so every character is handed
// to a pattern a bounded number of times: `work.chars` counts them, and
// test/unit/injection-scan.test.ts checks that it grows with the input, not
// faster.
//
// An unclosed tag (its run cut by a `<` or the end of the field) that carries
// a hidden attribute is a finding by itself: a browser reads its attributes on
// past that `<` to the next `>` (which may be the renderer's own markup), so
// what it hides cannot be bounded here, and it has no place in a skill.

/** Words that make hidden text an instruction to the model rather than markup. */
export const HIDDEN_WORDS = String.raw`(?:(?<![\w-])(?:ignore|disregard)\b|\binstructions?\b|\bsystem\s+prompt\b|\bassistant\b|\bLLM\b|\byou\s+(?:must|shall|are\s+now)\b|\b(?:do\s+not|don't|never)\s+(?:tell|mention|reveal|inform|disclose)\b|\bsecretly\b|\b(?:curl|wget|exfiltrate)\b|\bcredentials?\b|\bpasswords?\b|\bapi\s*keys?\b)`;

// The end of a tag or the next attribute, after a `hidden` attribute.
const ATTR_END = String.raw`(?=\s*\/?>|\s+[\w-]+\s*=)`;

/**
 * An attribute that hides its element, tested on one tag's run (`>`
 * included). `hidden`, `hidden=""`, `hidden=until-found`...: a `hidden=` with
 * no value is its own branch, so that no two `\s*` meet around the `=` (they
 * rescanned a run of spaces from every split).
 */
export const HIDDEN_ATTR =
  String.raw`(?:\shidden(?:\s*=\s*(?:["']?(?:hidden|true|until-found)["']?|["']["']?))?${ATTR_END}|\shidden\s*=${ATTR_END}` +
  String.raw`|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em|rem|%)?\s*(?:[;"']|$)|opacity\s*:\s*0(?:\.0+)?\s*[;"'])`;

/** How far after a hidden tag's `>` its hidden words may begin. */
export const CONTENT_WINDOW = 1000;

export interface Span {
  start: number;
  end: number;
}

/** Characters the pass stepped over or handed to a pattern (a deterministic measure of its work). */
export interface TagPassWork {
  chars: number;
}

interface Tag {
  start: number;
  /** The `>` of a closed tag, else the `<` or end of text that cut the run. */
  runEnd: number;
  closed: boolean;
  /** End of the first hidden attribute in the run, or -1. */
  hiddenEnd: number;
}

// `<` + a letter + the rest of the name's word: the attribute run starts at the
// first word boundary, where `<[a-z][\w-]*\b` let it start too.
const TAG_START = /<[a-z]\w*/gi;
const RUN_END = /[<>]/g;
const HIDDEN_ATTR_RE = new RegExp(HIDDEN_ATTR, 'i');
// Sticky at the character after a hidden tag's `>`, run on the text cut at the next hidden tag.
const CONTENT = new RegExp(String.raw`(?:[^<]|<(?!\/|!--)){0,${CONTENT_WINDOW}}?${HIDDEN_WORDS}`, 'iy');

function nextTag(text: string, from: number, work: TagPassWork): Tag | null {
  TAG_START.lastIndex = from;
  const m = TAG_START.exec(text);
  if (!m) {
    work.chars += text.length - from;
    return null;
  }
  const runStart = m.index + m[0].length;
  RUN_END.lastIndex = runStart;
  const cut = RUN_END.exec(text);
  const runEnd = cut ? cut.index : text.length;
  const closed = cut?.[0] === '>';
  // An unclosed run is tested as if the tag closed where it was cut.
  const attrs = closed ? text.slice(runStart, runEnd + 1) : `${text.slice(runStart, runEnd)}>`;
  const attr = HIDDEN_ATTR_RE.exec(attrs);
  work.chars += runEnd + 1 - from + attrs.length;
  return { start: m.index, runEnd, closed, hiddenEnd: attr ? runStart + attr.index + attr[0].length : -1 };
}

/** Where the search for the tag after `tag` starts: past its `>`, or at the `<` that cut it. */
const after = (tag: Tag) => (tag.closed ? tag.runEnd + 1 : tag.runEnd);

function nextHiddenTag(text: string, from: number, work: TagPassWork): Tag | null {
  let tag = nextTag(text, from, work);
  while (tag && tag.hiddenEnd < 0) tag = nextTag(text, after(tag), work);
  return tag;
}

/**
 * The hidden elements of `text`, in order and not overlapping: a closed
 * hidden tag through the end of the first hidden words in its content, or an
 * unclosed hidden tag through its first hidden attribute.
 */
export function* hiddenElementSpans(text: string, work: TagPassWork = { chars: 0 }): Generator<Span> {
  let tag = nextHiddenTag(text, 0, work);
  while (tag) {
    const next = nextHiddenTag(text, after(tag), work);
    if (!tag.closed) {
      yield { start: tag.start, end: tag.hiddenEnd };
    } else {
      const limit = next ? next.start : text.length;
      const from = tag.runEnd + 1;
      work.chars += Math.min(limit - from, CONTENT_WINDOW);
      CONTENT.lastIndex = from;
      const m = CONTENT.exec(limit === text.length ? text : text.slice(0, limit));
      if (m) yield { start: tag.start, end: m.index + m[0].length };
    }
    tag = next;
  }
}
