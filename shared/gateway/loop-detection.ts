// The gateway's own tool-loop detection (OpenClaw `tools.loopDetection`,
// schema `{ enabled?: boolean }`, off by default), per agent: the global
// setting and each agent's override (`agents.entries.<id>.tools.loopDetection`,
// which wins: OpenClaw resolves `agent.enabled ?? global.enabled`), read from
// the gateway's config, and the merge patch that sets one of them. svc's own
// runaway limits (shared/model-proxy/runaway.ts) apply either way; this is
// the gateway's earlier, finer check, shown beside them.
//
// Unset and `false` differ in OpenClaw: unset leaves its post-compaction
// guard on, an explicit `false` turns that guard off too. So "off" here
// removes svc's value (null) unless an override must say false to beat a
// global `true`.
import { z } from 'zod';
import { getPath, isJsonObject } from './config-file.ts';

export const LOOP_DETECTION_MESSAGES = {
  body: 'enabled (true, false or null) is required; agentId, when given, is a gateway agent id',
  unknownAgent: (id: string) => `the gateway has no agent ${id}`,
  notConnected: "svc is not connected to a gateway: the switch writes through the gateway's config.patch",
} as const;

/** PUT body: set the global value (no agentId) or one agent's; null removes it (the default or the global applies). */
export const LoopDetectionSwitch = z.object({ agentId: z.string().min(1).max(200).optional(), enabled: z.boolean().nullable() }).strict();
export type LoopDetectionSwitch = z.infer<typeof LoopDetectionSwitch>;

export const LoopDetectionAgent = z.object({
  agentId: z.string(),
  /** The agent's own override, null when unset. */
  enabled: z.boolean().nullable(),
  /** What the gateway applies to the agent's runs. */
  effective: z.boolean(),
});

export const LoopDetectionView = z.object({
  /** Where it was read: the running gateway (writable), its file (svc not connected: read only), or nowhere (no gateway yet). */
  source: z.enum(['gateway', 'file', 'none']),
  writable: z.boolean(),
  global: z.object({ enabled: z.boolean().nullable() }),
  agents: z.array(LoopDetectionAgent),
});
export type LoopDetectionView = z.infer<typeof LoopDetectionView>;

const enabledAt = (config: unknown, path: readonly string[]): boolean | null => {
  const v = getPath(config, [...path, 'tools', 'loopDetection']);
  return isJsonObject(v) && typeof v.enabled === 'boolean' ? v.enabled : null;
};

/** The global value and each agent's, as `config` holds them. */
export function readLoopDetection(config: unknown, agentIds: readonly string[], source: LoopDetectionView['source']): LoopDetectionView {
  const global = enabledAt(config, []);
  const agents = [...agentIds].sort().map((agentId) => {
    const enabled = enabledAt(config, ['agents', 'entries', agentId]);
    return { agentId, enabled, effective: enabled ?? global ?? false };
  });
  return { source, writable: source === 'gateway', global: { enabled: global }, agents };
}

/** The config.patch merge patch for a switch (null deletes the key, RFC 7396). */
export function loopDetectionPatch(s: LoopDetectionSwitch): Record<string, unknown> {
  const tools = { tools: { loopDetection: { enabled: s.enabled } } };
  return s.agentId === undefined ? tools : { agents: { entries: { [s.agentId]: tools } } };
}
