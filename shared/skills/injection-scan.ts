// The skill-install injection scan (spec "Smaller resources" → "Skills").
// Every rule is blocking. The rules live in one table (injection-rules.ts): a rule is an
// id (what a finding and the audit log name), a description and a pattern,
// plus where it looks (one line at a time, or the whole field so that a
// phrase split over a line break still matches) and, for the few rules whose
// characters have a legitimate use, the spans that are allowed.
//
// False positives cost an operator a refused install with a clear reason;
// false negatives hand an agent someone else's instructions. The edges we
// chose (each pinned by test/unit/injection-scan.test.ts):
//  - `rm -rf` is caught only on `/`, `~`, `$HOME` and top-level system
//    directories, never on a path below them (`rm -rf ./build` passes).
//  - `.env` is caught only with a command that prints or ships the file
//    (`cat .env`, `base64 .env`); `source .env`, `cp .env.example .env`,
//    "add .env to .gitignore" and `.env.example`/`.sample`/`.template` pass.
//  - `~/.ssh` and `id_*` keys are caught with any reading verb, except public
//    keys (`*.pub`), `known_hosts`, `config` and `authorized_keys` reads.
//  - Sending a secret to a URL needs a bulk or somebody-else's secret ("all
//    tokens", "the user's credentials", a key file) or an exfiltration verb:
//    "send your API key in the Authorization header" is how APIs work.
//  - HTML comments are caught only when they carry instruction-like words
//    (tool directives such as `<!-- prettier-ignore -->` pass); a markdown
//    link-definition comment (`[//]: # (...)`) is always caught, since its
//    only use is to hide text from the rendered view.
//  - A hidden element (`hidden`, `display:none`, ...) is caught when
//    instruction-like words follow within 1,000 characters; an unclosed tag
//    with a hidden attribute (no `>` before the next `<` or the end) is caught
//    whatever follows, since a browser hides everything up to the next `>`.
//  - Zero-width joiners inside emoji sequences (👩‍💻) and the three
//    subdivision flags (tag characters) are allowed; every other invisible,
//    bidi-override or tag character is caught, including a leading BOM.
//  - Text is scanned after NFKC normalisation, so fullwidth or ligature
//    look-alikes of a phrase match it too.
//
// The work is linear in the text for every rule (issue 15 #3; the rules'
// side of it is in injection-rules.ts, the hostile shapes are measured by
// test/bench/skill-scan.ts). svc runs the scan in a pool thread with a time
// limit all the same (supervisor/services/pool.ts).
import { createHash } from 'node:crypto';
import { maskText } from '../redact.ts';
import { SCAN_RULES, type ScanRule } from './injection-rules.ts';

export { SCAN_RULES, type ScanRule } from './injection-rules.ts';

export const SCANNED_FIELDS = ['name', 'source', 'category', 'body'] as const;
export type ScannedField = (typeof SCANNED_FIELDS)[number];

export interface Finding {
  /** The rule id. */
  pattern: string;
  field: ScannedField;
  /** 1-based, within the field. */
  line: number;
  /** Trimmed, masked, at most EXCERPT_MAX characters; invisible characters shown as <U+XXXX>. */
  excerpt: string;
  /** sha256 hex of rule id, field and the matched text, first 16 characters. */
  fingerprint: string;
}

export const EXCERPT_MAX = 120;
/** One hostile body can match thousands of times; the first ones are enough to refuse it. */
export const MAX_FINDINGS = 50;

// ------------------------------------------------------------------ scanner

// Every line terminator is made a plain \n before the scan, so a line rule's
// `[^\n]`, `^` and `$` see the same lines a reader does.
const LINE_BREAKS = /\r\n|[\r\u2028\u2029\u0085]/g;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\u180E\u00AD\u115F\u1160\u3164\uFFA0\u{E0000}-\u{E01EF}]|\u034F|[\uFE00-\uFE0F]/gu;

/** Start offset of each line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of `offset`: binary search over the line starts. */
function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const hex = (c: string) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;

/**
 * The match with a little context, widened to whitespace so a secret is not
 * cut in half (maskText must see all of it), made visible, masked, clipped.
 */
export function excerptOf(text: string, start: number, end: number): string {
  const context = end - start < 24 ? 24 : 0;
  let from = Math.max(0, start - context);
  let to = Math.min(text.length, end + context);
  for (let i = 0; i < 40 && from > 0 && !/\s/.test(text[from - 1] as string); i++) from--;
  for (let i = 0; i < 40 && to < text.length && !/\s/.test(text[to] as string); i++) to++;
  const visible = text.slice(from, to).replace(INVISIBLE, hex).replace(/\s+/g, ' ').trim();
  const masked = maskText(visible);
  return masked.length <= EXCERPT_MAX ? masked : `${masked.slice(0, EXCERPT_MAX - 1)}…`;
}

/** A whole value made safe to show or log: invisible characters visible, masked, clipped. */
export const visibleText = (s: string): string => excerptOf(s, 0, s.length);

export function fingerprintOf(ruleId: string, field: string, matched: string): string {
  return createHash('sha256').update(`${ruleId}\0${field}\0${matched}`).digest('hex').slice(0, 16);
}

interface Match {
  start: number;
  end: number;
  text: string;
}

/** A rule's regexes, compiled once: whole-text (with `m` for line rules) and single-line. */
interface Compiled {
  rule: ScanRule;
  whole: RegExp;
  single: RegExp;
}

/**
 * A line rule's source with every `\s` outside a character class written
 * `[^\S\n]`. On one line the two are the same; over the whole text it keeps
 * a line rule's whitespace from running on across line breaks, where `^\s*`
 * would rescan a field of blank lines from each of them (quadratic).
 */
export function horizontalSpace(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      out += !inClass && next === 's' ? '[^\\S\\n]' : c + next;
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return out;
}

const flagsWith = (re: RegExp, add: string) => [...new Set(re.flags + add)].join('');
const compile = (rule: ScanRule): Compiled => ({
  rule,
  whole:
    rule.span === 'line'
      ? new RegExp(horizontalSpace(rule.pattern.source), flagsWith(rule.pattern, 'gm'))
      : new RegExp(rule.pattern.source, flagsWith(rule.pattern, 'g')),
  single: new RegExp(rule.pattern.source, flagsWith(rule.pattern, 'g')),
});
const COMPILED = new WeakMap<readonly ScanRule[], Compiled[]>();

/**
 * Matches of a rule over the whole field. A line rule runs over the whole
 * text with `m` (one pass, not one call per line: a body of a million short
 * lines must not take seconds); a match that crosses a line break is not a
 * line match, so that line is re-run on its own from where the match began,
 * and the search resumes at the next line, which skips nothing a per-line
 * scan would find.
 */
function* patternMatches({ rule, whole, single }: Compiled, text: string, starts: number[]): Generator<Match> {
  whole.lastIndex = 0;
  for (let m = whole.exec(text); m !== null; m = whole.exec(text)) {
    const start = m.index;
    if (m[0] === '') {
      whole.lastIndex = start + 1;
      continue;
    }
    if (rule.span === 'field' || !m[0].includes('\n')) {
      yield { start, end: start + m[0].length, text: m[0] };
      continue;
    }
    const line = lineAt(starts, start);
    const lineStart = starts[line - 1] as number;
    const lineEnd = line < starts.length ? (starts[line] as number) - 1 : text.length;
    const lineText = text.slice(lineStart, lineEnd);
    single.lastIndex = start - lineStart;
    for (let s = single.exec(lineText); s !== null; s = single.exec(lineText)) {
      if (s[0] === '') single.lastIndex = s.index + 1;
      else yield { start: lineStart + s.index, end: lineStart + s.index + s[0].length, text: s[0] };
    }
    if (lineEnd >= text.length) return;
    whole.lastIndex = lineEnd + 1;
  }
}

/** The pattern's matches, and the rule's `more` merged in start order, overlaps dropped. */
function* matchesOf(c: Compiled, text: string, starts: number[]): Generator<Match> {
  const { more } = c.rule;
  if (!more) {
    yield* patternMatches(c, text, starts);
    return;
  }
  const a = patternMatches(c, text, starts);
  const b = more(text)[Symbol.iterator]();
  let x = a.next();
  let y = b.next();
  let end = 0;
  while (!x.done || !y.done) {
    let m: Match;
    if (y.done || (!x.done && x.value.start <= y.value.start)) {
      m = x.value as Match;
      x = a.next();
    } else {
      m = { ...y.value, text: text.slice(y.value.start, y.value.end) };
      y = b.next();
    }
    if (m.start < end) continue;
    end = m.end;
    yield m;
  }
}

/**
 * Whether a match lies wholly inside one of the rule's allowed spans. Spans
 * do not overlap and matches arrive in start order, so the only span that can
 * hold a match is the last one starting at or before it, and the spans are
 * read once, front to back, as the matches need them (testing every span per
 * match was quadratic on a body of emoji sequences).
 */
function allowedCheck(allow: RegExp | undefined, text: string): (m: Match) => boolean {
  if (!allow) return () => false;
  const re = new RegExp(allow.source, flagsWith(allow, 'g'));
  const read = (): [number, number] | null => {
    const n = re.exec(text);
    if (n === null) return null;
    if (n[0] === '') re.lastIndex = n.index + 1;
    return [n.index, n.index + n[0].length];
  };
  let current: [number, number] | null = null;
  let ahead: [number, number] | null | undefined;
  return (m) => {
    if (ahead === undefined) ahead = read();
    while (ahead !== null && ahead[0] <= m.start) {
      current = ahead;
      ahead = read();
    }
    return current !== null && current[0] <= m.start && m.end <= current[1];
  };
}

export type ScanInput = Partial<Record<ScannedField, string | null | undefined>>;

/**
 * Every finding over the given fields, in field then line order, at most
 * MAX_FINDINGS (scanning stops there: one is enough to refuse). Never throws
 * on any string.
 */
export function scanSkill(input: ScanInput, rules: readonly ScanRule[] = SCAN_RULES): Finding[] {
  let compiled = COMPILED.get(rules);
  if (!compiled) COMPILED.set(rules, (compiled = rules.map(compile)));
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const field of SCANNED_FIELDS) {
    const raw = input[field];
    if (typeof raw !== 'string' || raw === '') continue;
    // NFKC first, so look-alike letters read as the letters they imitate; it
    // never makes or removes a line break, so line numbers hold for the raw text.
    const text = raw.normalize('NFKC').replace(LINE_BREAKS, '\n');
    const starts = lineStarts(text);
    const fieldFindings: Array<Finding & { at: number }> = [];
    for (const c of compiled) {
      const allowed = allowedCheck(c.rule.allow, text);
      for (const m of matchesOf(c, text, starts)) {
        if (allowed(m)) continue;
        const line = lineAt(starts, m.start);
        const fingerprint = fingerprintOf(c.rule.id, field, m.text);
        const key = `${fingerprint}:${line}`;
        if (seen.has(key)) continue;
        seen.add(key);
        fieldFindings.push({ pattern: c.rule.id, field, line, excerpt: excerptOf(text, m.start, m.end), fingerprint, at: m.start });
        if (seen.size >= MAX_FINDINGS) break;
      }
      if (seen.size >= MAX_FINDINGS) break;
    }
    fieldFindings.sort((a, b) => a.line - b.line || a.at - b.at);
    for (const { at: _at, ...f } of fieldFindings) findings.push(f);
    if (seen.size >= MAX_FINDINGS) break;
  }
  return findings;
}
