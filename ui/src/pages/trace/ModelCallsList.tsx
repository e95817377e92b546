// A run's model calls (issue 22): one row per call svc's model endpoint
// served, oldest first as they happened: model, tokens in and out, cost, time
// to the first token, duration and how the call ended.
import { useRunModelCalls } from '../../api/model-calls.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { formatUsd } from '../../features/budgets/budget-format.ts';
import { formatMs, OUTCOME_TONE, outcomeText } from './call-format.ts';

const count = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US'));

export function ModelCallsList({ runId }: { runId: string }) {
  const calls = useRunModelCalls(runId);
  if (calls.isPending) return <Loading what="model calls" />;
  if (calls.error) return <ErrorState error={calls.error} retry={() => void calls.refetch()} />;
  if (calls.data.length === 0) {
    return (
      <Empty title="No model calls for this run">
        <p>Calls show here when the agent&apos;s model is routed through svc.</p>
      </Empty>
    );
  }
  const rows = [...calls.data].reverse();
  const total = rows.reduce((s, c) => s + (c.costUsd ?? 0), 0);
  return (
    <div role="region" aria-label="Model calls table" tabIndex={0} className="overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-left text-sm">
        <caption className="px-3 py-2 text-left text-sm text-muted">
          {rows.length} model {rows.length === 1 ? 'call' : 'calls'}, {formatUsd(total)} in all
        </caption>
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Started</th>
            <th scope="col" className="px-3 py-2 font-medium">Model</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Tokens in</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Tokens out</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Cost</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">First token</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Duration</th>
            <th scope="col" className="px-3 py-2 font-medium">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id} className="border-b border-border last:border-b-0">
              <td className="px-3 py-2 whitespace-nowrap">{new Date(c.startedAt).toLocaleTimeString()}</td>
              <th scope="row" className="px-3 py-2 font-mono font-normal">
                {c.model ?? '—'}
                <span className="block text-xs text-muted">{c.provider}</span>
              </th>
              <td className="px-3 py-2 text-right tabular-nums">
                {count(c.inputTokens)}
                {(c.cacheReadTokens ?? 0) > 0 && <span className="block text-xs text-muted">{count(c.cacheReadTokens)} cached</span>}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{count(c.outputTokens)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatUsd(c.costUsd)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMs(c.ttftMs)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMs(c.durationMs)}</td>
              <td className={`px-3 py-2 whitespace-nowrap ${OUTCOME_TONE[c.outcome] ?? ''}`}>{outcomeText(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
