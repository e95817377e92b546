// The team activity snapshot (spec "GET /api/teams/:id/activity-summary"):
// in order the lead brief, the board summary, saved memory and recent chat,
// against a 2,500-character budget. The brief is clipped to 900; the board
// summary and memory are kept whole (the board summary is bounded by
// construction); recent chat (up to 30 turns) gets what is left, the oldest
// turns dropped first. null when there is nothing to say.
import type { AgentStore } from '../agents/store.ts';
import type { Board, BoardSnapshot } from '../board/board.ts';
import { CLOSED } from '../board/transitions.ts';
import { TASK_STATUSES, type Task } from '../board/types.ts';
import type { Db } from '../db/open.ts';
import type { LeadBriefs } from '../lead/briefs.ts';
import type { LeadResolver } from '../lead/resolve.ts';
import type { Logger } from '../log.ts';
import { teamSessionKey } from '../team-chat/schemas.ts';

export const SUMMARY_BUDGET = 2500;
export const BRIEF_MAX = 900;
export const CHAT_TURNS_MAX = 30;
/** Open tasks listed by title in the board summary (the rest are counted). */
export const BOARD_OPEN_LISTED = 8;
const TASK_TITLE_MAX = 80;

/** The memory store arrives with the memory MCP server; until then the section is omitted. */
export interface TeamMemorySource {
  forTeam(teamId: string): string | null;
}

export interface ActivitySummaryDeps {
  db: Db;
  agents: AgentStore;
  board: Board;
  briefs: LeadBriefs;
  lead: LeadResolver;
  logger: Logger;
  memory?: TeamMemorySource;
}

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The board section from a team's status counts and its most recently updated open tasks. */
export function formatBoardSummary(counts: BoardSnapshot['counts'], recentOpen: readonly Task[]): string | null {
  const present = TASK_STATUSES.map((s) => [s, counts[s] ?? 0] as const).filter(([, n]) => n > 0);
  const total = present.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const lines = [`${total} task${total === 1 ? '' : 's'}: ${present.map(([s, n]) => `${n} ${s}`).join(', ')}`];
  for (const t of recentOpen.slice(0, BOARD_OPEN_LISTED)) {
    lines.push(`- [${t.status}] ${clip(oneLine(t.title), TASK_TITLE_MAX)}${t.assigneeAgentId ? ` (${t.assigneeAgentId})` : ''}`);
  }
  return lines.join('\n');
}

/** The same section from a list of tasks (what the snapshot query computes in SQL). */
export function boardSummary(tasks: readonly Task[]): string | null {
  const counts: BoardSnapshot['counts'] = {};
  for (const t of tasks) counts[t.status] = (counts[t.status] ?? 0) + 1;
  const open = tasks.filter((t) => !CLOSED.has(t.status)).sort((a, b) => b.updatedAt - a.updatedAt);
  return formatBoardSummary(counts, open);
}

interface Turn {
  id: number;
  line: string;
}

/** A transcript row as the summary reads it: its session and its entry's JSON. */
export interface SummaryRow {
  sessionKey: string;
  entry: string;
}

/**
 * A team's summary as read at one moment: the sections before the chat, the
 * newest turns that can fit what they leave (and the first that cannot: the
 * newest turn alone is clipped rather than dropped), and who speaks in each
 * of the team's sessions. `composeSummary` makes the text from it, with rows
 * written since put in front of the turns.
 */
export interface SummaryParts {
  sections: readonly string[];
  turns: readonly Turn[];
  speakers: ReadonlyMap<string, string>;
}

export interface ActivitySummary {
  (teamId: string): string | null;
  /** The parts the text is made of; null for a team that does not exist. */
  parts(teamId: string): SummaryParts | null;
}

const CHAT_HEAD = '## Recent chat\n';
const chatBudget = (sections: readonly string[]) => SUMMARY_BUDGET - sections.reduce((n, s) => n + s.length + 2, 0) - CHAT_HEAD.length;

export function createActivitySummary(deps: ActivitySummaryDeps): ActivitySummary {
  const { db, agents, board, briefs, lead, logger, memory } = deps;
  const teamExists = db.prepare('SELECT 1 FROM teams WHERE id = ?').pluck();
  const recentStmt = db.prepare(`SELECT id, entry FROM chat_messages WHERE session_key = ? ORDER BY id DESC LIMIT ${CHAT_TURNS_MAX}`);

  /** Who speaks in each of the team's sessions: its members (archived too) and the lead, by the name the dashboard shows. */
  function speakersOf(teamId: string): Map<string, string> {
    const names = new Map(agents.list({ teamId, includeArchived: true }).map((a) => [a.id, a.name]));
    const eff = lead.effective();
    // The lead is rarely a member: name its turns as the dashboard shows it, not by its id.
    if (eff && !names.has(eff.agentId)) names.set(eff.agentId, eff.displayName ?? eff.name ?? eff.agentId);
    return new Map([...names].map(([agentId, name]) => [teamSessionKey(agentId, teamId), name]));
  }

  /**
   * The team's newest meaningful turns, newest first, at most CHAT_TURNS_MAX.
   * A row is parsed only when the summary gets that far: it is built on
   * every delivery, and the chat section is usually full long before the
   * last of the rows read.
   */
  function* recentTurns(speakers: ReadonlyMap<string, string>): Generator<Turn> {
    const rows: Array<{ id: number; entry: string; name: string }> = [];
    for (const [sessionKey, name] of speakers) {
      for (const row of recentStmt.all(sessionKey) as Array<{ id: number; entry: string }>) rows.push({ ...row, name });
    }
    rows.sort((a, b) => b.id - a.id);
    let given = 0;
    for (const row of rows) {
      if (given === CHAT_TURNS_MAX) return;
      const line = turnLine(row.entry, row.name, logger);
      if (!line) continue;
      given++;
      yield { id: row.id, line };
    }
  }

  const parts = (teamId: string): SummaryParts | null => {
    // The spec: an unknown team is `null`, even when tasks or transcripts still name its id.
    if (teamExists.get(teamId) !== 1) return null;
    const sections: string[] = [];
    const brief = briefs.teamBrief(teamId).content?.trim();
    if (brief) sections.push(`## Lead brief\n${clip(brief, BRIEF_MAX)}`);
    const snap = board.snapshot(teamId, BOARD_OPEN_LISTED);
    const boardText = formatBoardSummary(snap.counts, snap.recentOpen);
    if (boardText) sections.push(`## Board\n${boardText}`);
    if (memory) {
      try {
        const saved = memory.forTeam(teamId)?.trim();
        if (saved) sections.push(`## Memory\n${saved}`);
      } catch (err) {
        // The spec: a memory-store failure drops the section, not the summary.
        logger.warn({ err, teamId }, 'activity summary: memory store failed; section omitted');
      }
    }
    const speakers = speakersOf(teamId);
    return { sections, turns: turnsWithin(recentTurns(speakers), chatBudget(sections)), speakers };
  };

  const summary = ((teamId: string) => composeSummary(parts(teamId))) as ActivitySummary;
  summary.parts = parts;
  return summary;
}

/** The turns fitTurns can use out of `budget`: those that fit, then the first that does not. */
function turnsWithin(newestFirst: Iterable<Turn>, budget: number): Turn[] {
  const out: Turn[] = [];
  let left = budget;
  for (const t of newestFirst) {
    out.push(t);
    left -= t.line.length + (out.length > 1 ? 1 : 0);
    if (left < 0) break;
  }
  return out;
}

/**
 * The summary's text from its parts, with `newer` (rows written since the
 * parts were read, oldest first) as the newest turns; a row of a session
 * that is not the team's is not a turn of it.
 */
export function composeSummary(parts: SummaryParts | null, newer: readonly SummaryRow[] = []): string | null {
  if (!parts) return null;
  const fresh: Turn[] = [];
  for (const row of newer) {
    const name = parts.speakers.get(row.sessionKey);
    const line = name === undefined ? null : turnLine(row.entry, name, null);
    if (line) fresh.unshift({ id: 0, line });
  }
  const turns = fresh.length === 0 ? parts.turns : [...fresh, ...parts.turns].slice(0, CHAT_TURNS_MAX);
  const chat = fitTurns(turns, chatBudget(parts.sections));
  const sections = chat ? [...parts.sections, `${CHAT_HEAD}${chat}`] : parts.sections;
  return sections.length > 0 ? sections.join('\n\n') : null;
}

/** Newest turns that fit in `budget` characters, in chronological order; the oldest go first. Reads no turn past the first that does not fit. */
export function fitTurns(newestFirst: Iterable<Turn>, budget: number): string | null {
  const kept: string[] = [];
  let left = budget;
  for (const t of newestFirst) {
    const cost = t.line.length + (kept.length > 0 ? 1 : 0);
    if (cost > left) {
      // The newest turn alone is too long: keep its start rather than nothing.
      if (kept.length === 0 && left > 20) kept.push(clip(t.line, left));
      break;
    }
    kept.push(t.line);
    left -= cost;
  }
  return kept.length > 0 ? kept.reverse().join('\n') : null;
}

/** A meaningful turn: a user or assistant entry with text; meta and system rows are not. */
function turnLine(entryJson: string, agentName: string, logger: Logger | null): string | null {
  let e: { role?: unknown; kind?: unknown; text?: unknown };
  try {
    e = JSON.parse(entryJson) as typeof e;
  } catch (err) {
    // Rows read from the table are logged; rows just written were serialized here and cannot fail.
    logger?.warn({ err }, 'activity summary: skipped a transcript row that is not JSON');
    return null;
  }
  if (typeof e.text !== 'string' || e.kind === 'meta' || e.role === 'system') return null;
  const text = oneLine(e.text);
  if (text === '') return null;
  return `${e.role === 'user' ? 'User' : agentName}: ${text}`;
}
