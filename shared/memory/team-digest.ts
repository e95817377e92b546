// What the team activity summary shows of saved memory (its "## Memory"
// section, kept whole there): the team's newest memories, one line each,
// bounded here so that the section stays small inside the 2,500-character budget.
import type { Memory } from './types.ts';

export const DIGEST_ITEMS = 8;
export const DIGEST_LINE_MAX = 160;
export const DIGEST_MAX = 600;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`);

/** One line per memory, newest first, within DIGEST_MAX characters; null when there is none. */
export function teamDigest(newestFirst: readonly Memory[]): string | null {
  const lines: string[] = [];
  let used = 0;
  for (const m of newestFirst.slice(0, DIGEST_ITEMS)) {
    const head = m.title ? `${oneLine(m.title)}: ` : '';
    const kind = m.kind !== 'note' ? `[${m.kind}] ` : '';
    const line = clip(`- ${kind}${head}${oneLine(m.content)}`, DIGEST_LINE_MAX);
    const cost = line.length + (lines.length > 0 ? 1 : 0);
    if (used + cost > DIGEST_MAX) break;
    lines.push(line);
    used += cost;
  }
  return lines.length > 0 ? lines.join('\n') : null;
}
