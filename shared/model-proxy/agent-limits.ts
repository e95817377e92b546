// How much of svc's model endpoint one agent may hold (issue 31 item 10): at
// most `maxInflight` calls in flight at once and `perMinute` call starts in
// any sliding minute. A call past either is a 429 whose message says which
// limit and carries no quota wording (the gateway retries a neutral 429; one
// that mentions quota disables the provider for every agent:
// docs/gateway-facts.md, "Provider refusals").
// In memory: the counts are the endpoint's own, per svc process.

export interface AgentLimitsOptions {
  maxInflight: number;
  perMinute: number;
  now?: () => number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; message: string; retryAfterS: number };

const MINUTE_MS = 60_000;

export function createAgentLimits(opts: AgentLimitsOptions) {
  const now = opts.now ?? Date.now;
  const inflight = new Map<string, number>();
  /** Each agent's call starts in the last minute, oldest first. */
  const starts = new Map<string, number[]>();
  return {
    admit(agentId: string): Admission {
      const at = now();
      const held = inflight.get(agentId) ?? 0;
      if (held >= opts.maxInflight) {
        return { ok: false, message: `agent ${agentId} already has ${held} model calls in flight (the most svc allows at once)`, retryAfterS: 1 };
      }
      const recent = starts.get(agentId) ?? [];
      while (recent.length > 0 && (recent[0] as number) <= at - MINUTE_MS) recent.shift();
      if (recent.length >= opts.perMinute) {
        const retryAfterS = Math.max(1, Math.ceil(((recent[0] as number) + MINUTE_MS - at) / 1000));
        return { ok: false, message: `agent ${agentId} started ${recent.length} model calls in the last minute (the most svc allows)`, retryAfterS };
      }
      recent.push(at);
      starts.set(agentId, recent);
      inflight.set(agentId, held + 1);
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          const n = (inflight.get(agentId) ?? 1) - 1;
          if (n <= 0) inflight.delete(agentId);
          else inflight.set(agentId, n);
        },
      };
    },
  };
}

export type AgentLimits = ReturnType<typeof createAgentLimits>;
