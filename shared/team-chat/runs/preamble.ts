// The context preamble every team-chat delivery carries (issue 17 #2,
// docs/team-chat.md "The preamble"): in order the team rules, what the user
// said about themselves at onboarding, the roster with the hand-over rule, and
// the team's activity summary (which already holds the lead brief). Each
// section is clipped to its own cap; empty sections are left out; the whole
// preamble stays within PREAMBLE_BUDGET characters (the last section gives way).
import type { Domain } from '../../domain.ts';
import { composeSummary, type SummaryParts, type SummaryRow } from '../../teams/activity-summary.ts';
import { addressable, loadRoster, type TeamRoster } from '../routing/answerer.ts';

export const PREAMBLE_BUDGET = 6500;
export const SECTION_CAPS = { rules: 2000, user: 1500, team: 500, activity: 2500 } as const;
/** What separates the preamble from the message; the fake model reads only what follows its last occurrence. */
export const MESSAGE_MARKER = '\n\n[Message]\n';

export interface PreambleInput {
  rules: string;
  userIntro: string;
  roster: TeamRoster;
  activity: string | null;
}

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`);

/** The [Team] section: who is on it, who leads, and how to hand the floor over. */
export function rosterText(roster: TeamRoster): string {
  const all = addressable(roster);
  if (all.length === 0) return '';
  const who = all.map((a) => `${a.name} (id ${a.id}${a.id === roster.lead?.id ? ', lead' : ''})`).join(', ');
  return `Agents: ${who}.\nTo hand the floor to a teammate, start a line of your reply with @<name>; delegate work as tasks on the board.`;
}

export function buildPreamble(p: PreambleInput): string {
  const sections: Array<[string, string, number]> = [
    ['[Team rules]', p.rules.trim(), SECTION_CAPS.rules],
    ['[About the user]', p.userIntro.trim(), SECTION_CAPS.user],
    ['[Team]', rosterText(p.roster), SECTION_CAPS.team],
    ['[Activity]', (p.activity ?? '').trim(), SECTION_CAPS.activity],
  ];
  const parts = sections.filter(([, body]) => body !== '').map(([head, body, cap]) => `${head}\n${clip(body, cap)}`);
  let text = parts.join('\n\n');
  if (text.length > PREAMBLE_BUDGET) {
    // Only possible when every section is near its cap: the headers push the sum past the budget.
    const last = parts.pop() ?? '';
    const head = parts.join('\n\n');
    const room = PREAMBLE_BUDGET - head.length - (head ? 2 : 0);
    text = room > 20 ? `${head}${head ? '\n\n' : ''}${clip(last, room)}` : clip(head, PREAMBLE_BUDGET);
  }
  return text;
}

/** What the gateway is sent: the preamble, the marker, the message. */
export const deliveryText = (preamble: string, message: string): string => `${preamble}${MESSAGE_MARKER}${message}`;

/** Everything a preamble is made of, read at one moment. */
export interface PreambleParts {
  roster: TeamRoster;
  rules: string;
  userIntro: string;
  activity: SummaryParts | null;
}

/** Reads a team's preamble parts (`roster`: when the caller has just read it). */
export function readPreambleParts(domain: Domain, teamId: string, roster?: TeamRoster): PreambleParts {
  return {
    roster: roster ?? loadRoster(domain, teamId),
    rules: domain.rules.get(teamId).text,
    userIntro: domain.onboarding.get(teamId).userIntroText,
    activity: domain.activitySummary.parts(teamId),
  };
}

/** The text a delivery sends: the preamble from `parts`, with `newer` rows (written since they were read) in its recent chat. */
export function preambleText(parts: PreambleParts, message: string, newer: readonly SummaryRow[] = []): string {
  const { rules, userIntro, roster } = parts;
  return deliveryText(buildPreamble({ rules, userIntro, roster, activity: composeSummary(parts.activity, newer) }), message);
}
