// The pending tab: a card per approval waiting on a person (polled every
// 3 s and on window focus), then the ones settled here (resolved or
// expired) until dismissed.
import { ApprovalCard, dismissSettled, useApprovals } from '../../features/approvals/index.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';

export function PendingTab() {
  const { pending, settled } = useApprovals();
  if (pending.isPending) return <Loading what="approvals" />;
  if (pending.error) return <ErrorState error={pending.error} retry={() => void pending.refetch()} />;
  const open = pending.data.filter((a) => !settled.has(a.id));
  const done = [...settled.values()].reverse();
  return (
    <div className="flex flex-col gap-3">
      <p role="status" aria-live="polite" className="text-sm text-muted">
        {open.length === 0 ? 'Nothing is waiting for you.' : `${open.length} approval${open.length === 1 ? '' : 's'} waiting.`}
      </p>
      {open.length === 0 && done.length === 0 ? (
        <Empty title="No pending approvals">
          When an agent asks to run a tool that needs your OK (such as deleting files), it shows up here and in its team&apos;s chat. The agent waits
          until you decide or the request expires.
        </Empty>
      ) : (
        <>
          <p className="text-sm text-muted">
            Use Tab to reach a card&apos;s buttons and Enter or Space to decide. Always allow asks you to confirm first.
          </p>
          <ul className="flex flex-col gap-3" aria-label="Pending approvals">
            {open.map((a) => (
              <li key={a.id}>
                <ApprovalCard approval={a} />
              </li>
            ))}
          </ul>
          {done.length > 0 && (
            <>
              <h2 className="mt-2 font-semibold">Recently resolved or expired</h2>
              <ul className="flex flex-col gap-3" aria-label="Recently resolved or expired">
                {done.map((s) => (
                  <li key={s.approval.id}>
                    <ApprovalCard approval={s.approval} settled={s} onDismiss={() => dismissSettled(s.approval.id)} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </div>
  );
}
