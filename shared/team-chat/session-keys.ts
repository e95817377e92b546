// Team session keys (spec "Transcript entry"): `agent:<agentId>:team:<teamId>`
// for an agent, `team:<teamId>` where a message goes when a team has no agent
// to answer it. No imports: the dashboard uses this same file.

/** The team session key of an agent. */
export const teamSessionKey = (agentId: string, teamId: string): string => `agent:${agentId}:team:${teamId}`;

/** Where a message goes when a team has no agent to answer it (no member, no lead). */
export const teamFallbackSessionKey = (teamId: string): string => `team:${teamId}`;

/** The agent id in a team session key of `teamId`; null for another team's key or the fallback key. */
export function agentIdOfTeamSessionKey(sessionKey: string, teamId: string): string | null {
  const prefix = 'agent:';
  const suffix = `:team:${teamId}`;
  if (!sessionKey.startsWith(prefix) || !sessionKey.endsWith(suffix)) return null;
  const id = sessionKey.slice(prefix.length, sessionKey.length - suffix.length);
  return id === '' ? null : id;
}
