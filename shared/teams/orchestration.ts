// The team chat's gate (spec "Team-scoped settings entries"): the setting
// `team-server-orchestrated:<teamId>` closes it only when it is the literal
// string `false`; absent or any other value means on. The one place that
// reads it, for the routes, the stream's frames and the team store.
import type { SettingsTable } from '../db/settings-table.ts';
import { TEAM_KEYS } from '../setting-keys.ts';

export function isServerOrchestrated(settings: Pick<SettingsTable, 'get'>, teamId: string): boolean {
  return settings.get(TEAM_KEYS.serverOrchestrated(teamId)) !== 'false';
}
