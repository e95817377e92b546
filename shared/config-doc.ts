// The part of docs/configuration.md that the settings table writes: the
// environment table, the ranges of the whole numbers and the list of svc's
// secrets. The page holds this text between two markers;
// test/unit/configuration-doc.test.ts fails when it differs, and
// `node --import tsx test/unit/write-configuration-doc.ts` rewrites it.
import { envNamesOf, type AnySetting } from './config-setting.ts';

export const DOC_BEGIN =
  '<!-- generated from shared/config-settings.ts; rewrite with `node --import tsx test/unit/write-configuration-doc.ts` -->';
export const DOC_END = '<!-- end of generated text -->';

const code = (name: string) => `\`${name}\``;
const row = (cells: string[]) => `|${cells.map((c) => (c === '' ? ' ' : ` ${c} `)).join('|')}|`;
const num = (n: number) => n.toLocaleString('en-US');

/** Entries in a row of their own, except that neighbours with the same default and meaning share one. */
function tableRows(settings: readonly AnySetting[]): string[] {
  const rows: { names: string[]; default: string; doc: string }[] = [];
  for (const s of settings) {
    if (s.doc === undefined) continue;
    const last = rows.at(-1);
    if (last && last.doc === s.doc && last.default === (s.default ?? '')) last.names.push(...envNamesOf(s));
    else rows.push({ names: [...envNamesOf(s)], default: s.default ?? '', doc: s.doc });
  }
  return rows.map((r) => row([r.names.map(code).join(', '), r.default, r.doc]));
}

function rangeOf(name: string, { min, max, elseUnset }: NonNullable<AnySetting['range']>): string {
  const span = max !== Number.MAX_SAFE_INTEGER ? `${num(min)}–${num(max)}` : min === 1 ? 'above 0' : `at least ${num(min)}`;
  return `${code(name)} ${span}${elseUnset ? ' (else unset)' : ''}`;
}

const listed = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The generated text, markers included, for these settings (SETTINGS, in its order). */
export function configurationDocBlock(settings: readonly AnySetting[]): string {
  const ranges = settings.flatMap((s) => (s.range ? envNamesOf(s).map((n) => rangeOf(n, s.range as NonNullable<AnySetting['range']>)) : []));
  const secrets = settings.flatMap((s) => (s.secret ? envNamesOf(s).map(code) : []));
  return [
    DOC_BEGIN,
    '',
    row(['variable', 'default', 'meaning']),
    '|---|---|---|',
    ...tableRows(settings),
    '',
    `Numbers that are not whole numbers in range fall back to the default: ${ranges.join(', ')}.`,
    '',
    `svc's own secrets among these (${listed(secrets)}) and every other \`SVC_*\` variable never reach a program svc runs, ` +
      'never appear in the boot report, and a `${NAME}` template never resolves them ([security.md](security.md#secrets)).',
    '',
    DOC_END,
  ].join('\n');
}

/** The page with its generated block replaced; throws when the markers are missing. */
export function withDocBlock(page: string, block: string): string {
  const start = page.indexOf(DOC_BEGIN);
  const end = page.indexOf(DOC_END);
  if (start < 0 || end < start) throw new Error(`the page has no "${DOC_BEGIN}" … "${DOC_END}" block`);
  return page.slice(0, start) + block + page.slice(end + DOC_END.length);
}
