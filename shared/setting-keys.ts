// Keys of the settings table that belong to teams and the lead agent (spec
// "Team-scoped settings entries"): one place, so a delete cleans what a write made.
export const LEAD_KEYS = {
  globalBrief: 'lead:global-brief',
  override: 'lead:agent-id',
  displayName: (agentId: string) => `lead:display-name:${agentId}`,
} as const;

export const TEAM_KEYS = {
  onboarding: (teamId: string) => `team-onboarding:${teamId}`,
  rules: (teamId: string) => `team-rules:${teamId}`,
  serverOrchestrated: (teamId: string) => `team-server-orchestrated:${teamId}`,
  /** Issue 23: `true` lets a team's members spawn each other on the gateway (default off). */
  subDelegation: (teamId: string) => `team-subdelegation:${teamId}`,
  /** Issue 31: the team's runaway-turn limits, only what it set (shared/model-proxy/runaway-limits.ts). */
  runawayLimits: (teamId: string) => `team-runaway-limits:${teamId}`,
} as const;
