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
//  - Zero-width joiners inside emoji sequences (👩‍💻) and the three
//    subdivision flags (tag characters) are allowed; every other invisible,
//    bidi-override or tag character is caught, including a leading BOM.
//  - Text is scanned after NFKC normalisation, so fullwidth or ligature
//    look-alikes of a phrase match it too.
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

const withFlags = (re: RegExp, add: string) => new RegExp(re.source, [...new Set(re.flags + add)].join(''));
const compile = (rule: ScanRule): Compiled => ({
  rule,
  whole: rule.span === 'line' ? withFlags(rule.pattern, 'gm') : withFlags(rule.pattern, 'g'),
  single: withFlags(rule.pattern, 'g'),
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
function* matchesOf({ rule, whole, single }: Compiled, text: string, starts: number[]): Generator<Match> {
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

function allowedSpans(rule: ScanRule, text: string): Array<[number, number]> {
  if (!rule.allow) return [];
  return [...text.matchAll(rule.allow)].map((m) => [m.index, m.index + m[0].length]);
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
      let allowed: Array<[number, number]> | null = null;
      for (const m of matchesOf(c, text, starts)) {
        allowed ??= allowedSpans(c.rule, text);
        if (allowed.some(([a, b]) => a <= m.start && m.end <= b)) continue;
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
