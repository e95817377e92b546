// The names svc gives its provider entries in the gateway's openclaw.json and
// the endpoint URLs they point at (docs/model-routing.md). Each routed agent
// has `svc-<agent>`, for its primary's upstream (and its fallbacks on that
// upstream), at `/model/<agent>/v1`; a fallback on another upstream goes
// through `svc-<agent>~<upstream>` at `/model/<agent>/via/<upstream>/v1`.
// The `~` cannot occur in an OpenClaw agent id (letters, digits, `_`, `-`),
// so no agent's `svc-<agent>` is another agent's via entry, and the first `~`
// splits a via id into its agent and upstream. Every id starts with `svc-`:
// the routing round removes the ones it no longer wants by that prefix.

export const SVC_PROVIDER_PREFIX = 'svc-';
/** Between the agent and the upstream in a via entry's id. */
export const VIA_SEPARATOR = '~';

export const svcProviderId = (agentId: string): string => `${SVC_PROVIDER_PREFIX}${agentId}`;
/** The base URL the gateway is given for an agent: every API it speaks appends its own path below `/v1`. */
export const svcBaseUrl = (port: number, agentId: string): string => `http://127.0.0.1:${port}/model/${encodeURIComponent(agentId)}/v1`;

/** Whether svc can name a via entry for this agent: its id must not hold the separator (OpenClaw's never do). */
export const viaNameable = (agentId: string): boolean => !agentId.includes(VIA_SEPARATOR);
/** The provider id of an agent's fallbacks on `upstream` (not its primary's upstream). */
export const svcViaProviderId = (agentId: string, upstream: string): string => `${svcProviderId(agentId)}${VIA_SEPARATOR}${upstream}`;
/** Where that entry points: the endpoint reads the upstream from the path. */
export const svcViaBaseUrl = (port: number, agentId: string, upstream: string): string =>
  `http://127.0.0.1:${port}/model/${encodeURIComponent(agentId)}/via/${encodeURIComponent(upstream)}/v1`;

/**
 * Which of the agent's svc entries a provider id is: `own` (`svc-<agent>`,
 * the primary's upstream), `via` with the upstream it names, or null (not
 * this agent's: another agent's, or no svc entry at all).
 */
export function svcEntryOf(agentId: string, providerId: string): { kind: 'own' } | { kind: 'via'; upstream: string } | null {
  const own = svcProviderId(agentId);
  if (providerId === own) return { kind: 'own' };
  const prefix = `${own}${VIA_SEPARATOR}`;
  if (!viaNameable(agentId) || !providerId.startsWith(prefix) || providerId.length === prefix.length) return null;
  return { kind: 'via', upstream: providerId.slice(prefix.length) };
}
