// A team's runaway limits (docs/runaway.md): one settings-table entry per
// team, `team-runaway-limits:<teamId>`, JSON holding only the limits the team
// set (a limit it did not set is the default, and follows the default if
// that changes). An agent on several teams is held to the strictest of them;
// on none, to the defaults.
import type { z } from 'zod';
import type { SettingsTable } from '../db/settings-table.ts';
import type { Logger } from '../log.ts';
import { RUNAWAY_DEFAULTS, RunawayLimits } from './runaway.ts';
import { TEAM_KEYS } from '../setting-keys.ts';

export const runawayLimitsKey = TEAM_KEYS.runawayLimits;

/** What a team sets: either limit, or neither (the defaults). */
export const RunawayLimitsPatch = RunawayLimits.partial().strict();
export type RunawayLimitsPatch = z.infer<typeof RunawayLimitsPatch>;

export interface TeamRunawayLimits {
  /** What applies to the team's agents from this team. */
  limits: RunawayLimits;
  /** What the team set itself (absent fields are the defaults). */
  custom: RunawayLimitsPatch;
  defaults: RunawayLimits;
}

/** The team's own entry; an entry that does not parse counts as unset (logged: a person should look). */
function customOf(settings: Pick<SettingsTable, 'get'>, teamId: string, logger?: Pick<Logger, 'warn'>): RunawayLimitsPatch {
  const raw = settings.get(runawayLimitsKey(teamId));
  if (raw === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    logger?.warn({ err, teamId }, 'runaway limits: the team entry is not JSON; the defaults apply');
    return {};
  }
  const r = RunawayLimitsPatch.safeParse(parsed);
  if (!r.success) logger?.warn({ teamId }, 'runaway limits: the team entry is out of bounds; the defaults apply');
  return r.success ? r.data : {};
}

export function readTeamRunawayLimits(settings: Pick<SettingsTable, 'get'>, teamId: string, logger?: Pick<Logger, 'warn'>): TeamRunawayLimits {
  const custom = customOf(settings, teamId, logger);
  return { limits: { ...RUNAWAY_DEFAULTS, ...custom }, custom, defaults: { ...RUNAWAY_DEFAULTS } };
}

/** Stores what the team sets (an empty patch goes back to the defaults). */
export function writeTeamRunawayLimits(settings: Pick<SettingsTable, 'set' | 'delete'>, teamId: string, patch: RunawayLimitsPatch): void {
  if (Object.keys(patch).length === 0) settings.delete(runawayLimitsKey(teamId));
  else settings.set(runawayLimitsKey(teamId), JSON.stringify(patch));
}

/** The limits an agent on `teamIds` is held to: the strictest of its teams', the defaults when it is on none. */
export function resolveRunawayLimits(settings: Pick<SettingsTable, 'get'>, teamIds: readonly string[], logger?: Pick<Logger, 'warn'>): RunawayLimits {
  const all = teamIds.map((id) => readTeamRunawayLimits(settings, id, logger).limits);
  if (all.length === 0) return { ...RUNAWAY_DEFAULTS };
  return {
    maxCallsPerTurn: Math.min(...all.map((l) => l.maxCallsPerTurn)),
    maxIdenticalRepeats: Math.min(...all.map((l) => l.maxIdenticalRepeats)),
  };
}
