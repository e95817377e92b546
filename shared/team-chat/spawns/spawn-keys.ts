// The pure parts of following native delegations (issue 23;
// docs/gateway-facts.md, "Native delegation"): which gateway session key
// belongs to which team, what an announce run id names, and what a
// `sessions_spawn` tool event says. spawns.ts acts on them.
import { z } from 'zod';

/** The gateway's team session key `agent:<gatewayAgentId>:team:<teamId>` (session-keys.ts), split. */
export function teamKeyParts(sessionKey: string): { gatewayAgentId: string; teamId: string } | null {
  const m = /^agent:([^:]+):team:(.+)$/.exec(sessionKey);
  return m ? { gatewayAgentId: m[1] as string, teamId: m[2] as string } : null;
}

/** A spawned child's session key `agent:<gatewayAgentId>:subagent:<id>`: its agent, else null. */
export function subagentKeyAgent(sessionKey: string): string | null {
  return /^agent:([^:]+):subagent:[^:]+$/.exec(sessionKey)?.[1] ?? null;
}

/** The gateway's own runs that bring a child's result back to its parent (`announce:v1:…`, `announce:requester-settle:…`). */
export const isAnnounceRunId = (runId: string): boolean => runId.startsWith('announce:');

/**
 * The child an announce run continues from: `announce:v1:<childSessionKey>:<childRunId>`
 * gives both; another form (`announce:requester-settle:…`) gives the child key when it
 * names one, and no run.
 */
export function announceSource(runId: string): { childSessionKey: string; childRunId: string | null } | null {
  if (!isAnnounceRunId(runId)) return null;
  const v1 = /^announce:v1:(agent:[^:]+:subagent:[^:]+):([^:]+)$/.exec(runId);
  if (v1) return { childSessionKey: v1[1] as string, childRunId: v1[2] as string };
  const key = /(agent:[^:]+:subagent:[^:]+)/.exec(runId)?.[1];
  return key ? { childSessionKey: key, childRunId: null } : null;
}

const SpawnArgs = z.object({
  task: z.string().optional().catch(undefined),
  agentId: z.string().optional().catch(undefined),
  label: z.string().optional().catch(undefined),
});
export type SpawnArgs = z.infer<typeof SpawnArgs>;

const SpawnResult = z.object({
  status: z.string(),
  childSessionKey: z.string().optional().catch(undefined),
  runId: z.string().optional().catch(undefined),
  error: z.string().optional().catch(undefined),
});
export type SpawnResult = z.infer<typeof SpawnResult>;

/** A `sessions_spawn` call's arguments (the tool `start` event's `data.args`). */
export const spawnArgsOf = (args: unknown): SpawnArgs => SpawnArgs.catch({}).parse(args ?? {});

/**
 * What the gateway answered a `sessions_spawn` (the tool `result` event's
 * `data.result`): its `details`, else the JSON text of its content; null when neither parses.
 */
export function spawnResultOf(result: unknown): SpawnResult | null {
  const r = result as { details?: unknown; content?: unknown } | null | undefined;
  const details = SpawnResult.safeParse(r?.details);
  if (details.success) return details.data;
  const text = Array.isArray(r?.content) ? (r.content as Array<{ text?: unknown }>).map((c) => (typeof c?.text === 'string' ? c.text : '')).join('') : '';
  try {
    const parsed = SpawnResult.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    // Not JSON: a result svc cannot read is no spawn it can follow.
    return null;
  }
}

/** The name a hand-over shows: the spawn's label, else the task's first 80 characters. */
export function spawnLabel(args: SpawnArgs): string {
  const label = args.label?.trim();
  if (label) return label;
  const task = (args.task ?? '').trim().replace(/\s+/g, ' ');
  return task.length > 80 ? `${task.slice(0, 79)}…` : task || 'a task';
}
