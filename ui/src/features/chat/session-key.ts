// The team session key of an agent: a copy of `teamSessionKey` in
// shared/team-chat/schemas.ts (spec "Transcript entry": `agent:<agentId>:team:<teamId>`),
// because the UI may not import that module at runtime (it would bring zod
// into the bundle). test/unit/ui-chat.test.ts pins both to the same output.
// Also the fallback key of a team with no agent (teamFallbackSessionKey there)
// and the inverse: which agent a key of this team names.

export const teamSessionKey = (agentId: string, teamId: string): string => `agent:${agentId}:team:${teamId}`;

export const teamFallbackSessionKey = (teamId: string): string => `team:${teamId}`;

/** The agent id in a team session key of `teamId`, or null for another team's key or the fallback key. */
export function agentIdOfSessionKey(sessionKey: string, teamId: string): string | null {
  const prefix = 'agent:';
  const suffix = `:team:${teamId}`;
  if (!sessionKey.startsWith(prefix) || !sessionKey.endsWith(suffix)) return null;
  const id = sessionKey.slice(prefix.length, sessionKey.length - suffix.length);
  return id === '' ? null : id;
}
