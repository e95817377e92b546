// The teams feature's public surface.
export { teamsKey, useTeam, useTeams, type TeamState } from './useTeams.ts';
