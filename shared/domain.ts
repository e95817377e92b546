// The domain stores over one connection: teams, agents, the board, the lead
// agent. Every thread that serves them (the supervisor now; the MCP servers
// and the team-chat worker later) builds the same set with this function, so
// they all run the same rules.
import { createAgentStore, type AgentStore } from './agents/store.ts';
import { createBoard, type Board } from './board/board.ts';
import type { Db } from './db/open.ts';
import type { SettingsTable } from './db/settings-table.ts';
import type { Tx } from './db/tx.ts';
import type { EventLog } from './events/event-log.ts';
import { createLeadBriefs, type LeadBriefs } from './lead/briefs.ts';
import { createLeadResolver, type LeadResolver } from './lead/resolve.ts';
import type { Logger } from './log.ts';
import { createActivitySummary, type ActivitySummary, type TeamMemorySource } from './teams/activity-summary.ts';
import { createOnboardingStore, type OnboardingStore } from './teams/onboarding.ts';
import { createRulesStore, type RulesStore } from './teams/rules.ts';
import { createTeamStore, type TeamStore } from './teams/store.ts';

export interface Domain {
  teams: TeamStore;
  agents: AgentStore;
  board: Board;
  onboarding: OnboardingStore;
  rules: RulesStore;
  briefs: LeadBriefs;
  lead: LeadResolver;
  activitySummary: ActivitySummary;
}

export interface DomainDeps {
  db: Db;
  tx: Tx;
  settingsTable: SettingsTable;
  eventLog: EventLog;
  logger: Logger;
  memory?: TeamMemorySource;
  now?: () => number;
}

export function createDomain({ db, tx, settingsTable, eventLog, logger, memory, now = Date.now }: DomainDeps): Domain {
  const agents = createAgentStore(db, tx, settingsTable, now);
  const board = createBoard({ db, tx, eventLog, now });
  const briefs = createLeadBriefs(db, settingsTable, now);
  const lead = createLeadResolver(db, settingsTable, agents);
  return {
    teams: createTeamStore(db, tx, settingsTable, now),
    agents,
    board,
    onboarding: createOnboardingStore(settingsTable, logger),
    rules: createRulesStore(settingsTable),
    briefs,
    lead,
    activitySummary: createActivitySummary({ db, agents, board, briefs, lead, logger, memory }),
  };
}
