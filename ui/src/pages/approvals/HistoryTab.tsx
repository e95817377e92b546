// The history tab: every approval asked for and how it ended, folded from
// the event log's approval_requested / approval_resolved rows (GET
// /api/obs/events); below it, apart, the decisions clients reported through
// POST /api/approvals, which svc did not see taken and which grant nothing.
import { useApprovalHistory, usePendingApprovals, useReportedDecisions } from '../../api/approvals.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { foldHistory, formatTime, OUTCOME_LABEL, type HistoryOutcome } from '../../features/approvals/logic.ts';

const TONE: Record<HistoryOutcome, string> = {
  allow_once: 'text-ok',
  allow_always: 'text-ok',
  deny: 'text-danger',
  pending: 'text-warn',
  expired: 'text-muted',
};

export function HistoryTab() {
  return (
    <div className="flex flex-col gap-6">
      <AskedHistory />
      <ReportedDecisions />
    </div>
  );
}

function AskedHistory() {
  const history = useApprovalHistory();
  const pending = usePendingApprovals();
  if (history.isPending) return <Loading what="approval history" />;
  if (history.error) return <ErrorState error={history.error} retry={() => void history.refetch()} />;
  const rows = foldHistory(history.data, new Set((pending.data ?? []).map((a) => a.id)));
  if (rows.length === 0) return <Empty title="No approvals yet">Every approval an agent asks for, and how it ended, is listed here.</Empty>;
  const now = Date.now();
  return (
    <DataTable label="Approval history" caption="Approval history, newest first" columns={['Asked', 'Tool', 'Agent', 'Decision', 'Decided']}>
      {rows.map((r) => (
        <tr key={r.approvalId} className="border-t border-border bg-surface">
          <td className="px-3 py-2 whitespace-nowrap">{r.requestedAt === null ? '—' : formatTime(r.requestedAt, now)}</td>
          <td className="px-3 py-2 font-mono break-all">{r.toolName}</td>
          <td className="px-3 py-2 break-all">{r.agentId ?? 'unknown'}</td>
          <td className={`px-3 py-2 font-semibold ${TONE[r.outcome]}`}>{OUTCOME_LABEL[r.outcome]}</td>
          <td className="px-3 py-2 whitespace-nowrap">{r.resolvedAt === null ? '—' : formatTime(r.resolvedAt, now)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Only when there are some: most people never use the reporting route. */
function ReportedDecisions() {
  const reported = useReportedDecisions();
  if (reported.isPending || reported.error || reported.data.length === 0) return null;
  const now = Date.now();
  return (
    <section aria-labelledby="reported-heading" className="flex flex-col gap-2">
      <h2 id="reported-heading" className="font-semibold">
        Reported by clients
      </h2>
      <p className="text-sm text-muted">
        Decisions another program recorded through <code className="rounded bg-surface-2 px-1">POST /api/approvals</code>. svc did not see them
        taken, they answer none of its approvals, and they granted nothing.
      </p>
      <DataTable
        label="Decisions reported by clients"
        caption="Decisions reported by clients, newest first"
        columns={['Reported', 'Tool', 'Agent', 'Says', 'Reason given']}
      >
        {reported.data.map((r) => (
          <tr key={r.id} className="border-t border-border bg-surface">
            <td className="px-3 py-2 whitespace-nowrap">{formatTime(r.createdAt, now)}</td>
            <td className="px-3 py-2 font-mono whitespace-nowrap">{r.toolName}</td>
            <td className="px-3 py-2 whitespace-nowrap">{r.agentId ?? 'unknown'}</td>
            <td className="px-3 py-2 whitespace-nowrap">{OUTCOME_LABEL[r.action]}</td>
            {/* A reason reads as a sentence: the region scrolls sideways rather than squeeze it to a word a line. */}
            <td className="min-w-64 px-3 py-2 break-words">{r.reason ?? '—'}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
