// The tool audit tab: the broker's before/after rows (GET /api/tools/audit,
// newest first, summaries masked by the server), filterable by tool name.
import { useEffect, useState } from 'react';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { useToolAudit } from '../../api/approvals.ts';
import { formatTime } from '../../features/approvals/logic.ts';

export function AuditTab({ toolName, onToolName }: { toolName: string; onToolName: (v: string) => void }) {
  const [draft, setDraft] = useState(toolName);
  useEffect(() => setDraft(toolName), [toolName]);
  const audit = useToolAudit(toolName);
  const now = Date.now();
  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          onToolName(draft.trim());
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          Tool name
          <input className="input w-56" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="all tools" />
        </label>
        <button type="submit" className="btn">
          Filter
        </button>
        {toolName && (
          <button type="button" className="btn" onClick={() => onToolName('')}>
            Show all
          </button>
        )}
      </form>
      {audit.isPending ? (
        <Loading what="tool audit" />
      ) : audit.error ? (
        <ErrorState error={audit.error} retry={() => void audit.refetch()} />
      ) : audit.data.length === 0 ? (
        <Empty title={toolName ? `No audit rows for ${toolName}` : 'No tool calls yet'}>Each brokered tool call writes a row before it runs and one after.</Empty>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border" tabIndex={0} role="region" aria-label="Tool audit">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Tool audit, newest first</caption>
            <thead className="bg-surface-2 text-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Time</th>
                <th scope="col" className="px-3 py-2 font-medium">Tool</th>
                <th scope="col" className="px-3 py-2 font-medium">Agent</th>
                <th scope="col" className="px-3 py-2 font-medium">Phase</th>
                <th scope="col" className="px-3 py-2 font-medium">Decision</th>
                <th scope="col" className="px-3 py-2 font-medium">Arguments / result (masked)</th>
              </tr>
            </thead>
            <tbody>
              {audit.data.map((r) => (
                <tr key={r.id} className="border-t border-border bg-surface align-top">
                  <td className="px-3 py-2 whitespace-nowrap">{formatTime(r.createdAt, now)}</td>
                  <td className="px-3 py-2 font-mono break-all">{r.toolName}</td>
                  <td className="px-3 py-2 break-all">{r.agentId ?? 'unknown'}</td>
                  <td className="px-3 py-2">{r.phase}</td>
                  <td className={`px-3 py-2 ${r.isError ? 'text-danger' : ''}`}>{r.phase === 'before' ? (r.decision ?? '—') : r.isError ? 'error' : 'ok'}</td>
                  <td className="max-w-md px-3 py-2 font-mono text-xs break-all">{(r.phase === 'before' ? r.argsSummary : r.resultSummary) ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
