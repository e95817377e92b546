// A run's token usage as the gateway reports it (docs/gateway-facts.md, "Usage
// and cost", checked against openclaw 2026.9.6): `chat.history` of the session
// holds one assistant message per model call, each with `usage.input` /
// `usage.output`, `provider`, `model` and `__openclaw.runId`. A run with tool
// calls has several; they are summed. The `chat` final event carries no usage.
// The gateway counts cache reads and writes apart from `usage.input`; here,
// as at svc's model endpoint, input tokens are all of them (the cache
// tokens counted in, and also kept apart so they are priced at the cache
// prices where the gateway's config has them).
// A call whose provider is `svc-<agent>` went through svc's model endpoint
// (issue 22), which already recorded its cost and spend: the sum keeps such
// calls apart, so the run's cost record and budget spend count only the rest.
import { z } from 'zod';

/** One model call's usage as the gateway reports it on an assistant message (chat.history and session.message alike). */
export const GatewayCallUsage = z
  .object({
    input: z.number().optional().catch(undefined),
    output: z.number().optional().catch(undefined),
    cacheRead: z.number().optional().catch(undefined),
    cacheWrite: z.number().optional().catch(undefined),
  })
  .optional()
  .catch(undefined);

/** An assistant message of a session as the gateway sends it: who answered, with what model, what it used, in which run. */
export const GatewayMessage = z.object({
  role: z.string().optional(),
  provider: z.string().optional().catch(undefined),
  model: z.string().optional().catch(undefined),
  usage: GatewayCallUsage,
  responseId: z.string().optional().catch(undefined),
  __openclaw: z.object({ runId: z.string().optional().catch(undefined), id: z.string().optional().catch(undefined) }).optional().catch(undefined),
});
const HistoryMessage = GatewayMessage;
const History = z.object({ messages: z.array(z.unknown()).catch([]) });

/** Tokens of some of a run's model calls. */
export interface CallsUsage {
  /** Model calls (assistant messages) counted. */
  calls: number;
  /** Cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** `<provider>/<model>` of the last such call, null when none named one. */
  model: string | null;
}

export interface RunUsage {
  /** The whole run (every call): what the executions row shows. Cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  /** `<provider>/<model>` as the gateway names it (what shared/pricing prices by), null when unknown. */
  model: string | null;
  /** The calls that went through svc's model endpoint (provider `svc-*`): counted there already. */
  routed: CallsUsage;
  /** The other calls: svc learns of them only here, so the run records their cost and meters their spend. */
  unrouted: CallsUsage;
}

/** The provider prefix of the per-agent providers svc's routing writes into the gateway's config. */
export const ROUTED_PROVIDER_PREFIX = 'svc-';

/** How many history messages are read: a run's model calls are among the last ones of its session. */
export const HISTORY_LIMIT = 100;

const count = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0);

const noCalls = (): CallsUsage => ({ calls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, model: null });

/** A run with no usage known (the history could not be read, or nothing ran). */
export const noUsage = (): RunUsage => ({ inputTokens: 0, outputTokens: 0, model: null, routed: noCalls(), unrouted: noCalls() });

/** Whether a call's provider is one of svc's per-agent routing providers. */
export const isRoutedProvider = (provider: string | null | undefined): boolean => !!provider && provider.toLowerCase().startsWith(ROUTED_PROVIDER_PREFIX);

/** Sums the usage of the assistant messages of `runId` in a `chat.history` answer, routed and unrouted apart. */
export function usageOfRun(history: unknown, runId: string): RunUsage {
  const out = noUsage();
  const parsed = History.safeParse(history);
  if (!parsed.success) return out;
  for (const raw of parsed.data.messages) {
    const m = HistoryMessage.safeParse(raw);
    if (!m.success || m.data.role !== 'assistant' || m.data.__openclaw?.runId !== runId) continue;
    const cacheRead = count(m.data.usage?.cacheRead);
    const cacheWrite = count(m.data.usage?.cacheWrite);
    const input = count(m.data.usage?.input) + cacheRead + cacheWrite;
    const output = count(m.data.usage?.output);
    const model = m.data.model ? (m.data.provider ? `${m.data.provider}/${m.data.model}` : m.data.model) : null;
    const part = isRoutedProvider(m.data.provider) ? out.routed : out.unrouted;
    part.calls++;
    part.inputTokens += input;
    part.outputTokens += output;
    part.cacheReadTokens += cacheRead;
    part.cacheWriteTokens += cacheWrite;
    if (model) part.model = model;
    out.inputTokens += input;
    out.outputTokens += output;
    if (model) out.model = model;
  }
  return out;
}
