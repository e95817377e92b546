// A run's token usage as the gateway reports it (RECIPE §10, checked against
// openclaw 2026.9.6): `chat.history` of the session holds one assistant
// message per model call, each with `usage.input` / `usage.output`,
// `provider`, `model` and `__openclaw.runId`. A run with tool calls has
// several; they are summed. The `chat` final event carries no usage.
import { z } from 'zod';

const HistoryMessage = z.object({
  role: z.string().optional(),
  provider: z.string().optional().catch(undefined),
  model: z.string().optional().catch(undefined),
  usage: z.object({ input: z.number().optional().catch(undefined), output: z.number().optional().catch(undefined) }).optional().catch(undefined),
  __openclaw: z.object({ runId: z.string().optional().catch(undefined) }).optional().catch(undefined),
});
const History = z.object({ messages: z.array(z.unknown()).catch([]) });

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  /** `<provider>/<model>` as the gateway names it (shared/pricing.ts strips the provider), null when unknown. */
  model: string | null;
}

/** How many history messages are read: a run's model calls are among the last ones of its session. */
export const HISTORY_LIMIT = 100;

const count = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0);

/** Sums the usage of the assistant messages of `runId` in a `chat.history` answer. */
export function usageOfRun(history: unknown, runId: string): RunUsage {
  const parsed = History.safeParse(history);
  const out: RunUsage = { inputTokens: 0, outputTokens: 0, model: null };
  if (!parsed.success) return out;
  for (const raw of parsed.data.messages) {
    const m = HistoryMessage.safeParse(raw);
    if (!m.success || m.data.role !== 'assistant' || m.data.__openclaw?.runId !== runId) continue;
    out.inputTokens += count(m.data.usage?.input);
    out.outputTokens += count(m.data.usage?.output);
    if (m.data.model) out.model = m.data.provider ? `${m.data.provider}/${m.data.model}` : m.data.model;
  }
  return out;
}
