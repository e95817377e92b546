// One approval: tool, agent, risk, masked arguments, reason, the expiry
// countdown, and allow once / always allow (confirmed) / deny. A row that
// expired says so and offers nothing; a resolved one shows its decision.
import { useState } from 'react';
import { useResolveApproval, useTools } from '../../api/approvals.ts';
import type { ApprovalDecision, ToolApproval } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { cardState, countdownText, DECISION_LABEL, prettyArgs, riskOf, type Settled } from './logic.ts';
import { settleResolved } from './settled.ts';
import { useClock } from './use-clock.ts';

const RISK_TONE: Record<string, string> = {
  safe: 'border-ok text-ok',
  destructive: 'border-danger text-danger',
  external: 'border-warn text-warn',
};

export interface ApprovalCardProps {
  approval: ToolApproval;
  /** Set when the row left the queue while this tab watched it. */
  settled?: Settled | undefined;
  /** The team tray's smaller layout (arguments folded away). */
  compact?: boolean;
  onDismiss?: (() => void) | undefined;
}

function Outcome({ text, tone }: { text: string; tone: string }) {
  return <p className={`text-sm font-semibold ${tone}`}>{text}</p>;
}

export function ApprovalCard({ approval, settled, compact = false, onDismiss }: ApprovalCardProps) {
  const now = useClock();
  const tools = useTools();
  const resolve = useResolveApproval({ onResolved: settleResolved });
  const [confirming, setConfirming] = useState(false);
  const state = settled
    ? settled.outcome === 'expired'
      ? ({ kind: 'expired' } as const)
      : ({ kind: 'resolved', decision: settled.outcome } as const)
    : cardState(approval, now);
  const risk = riskOf(approval.toolName, tools.data);
  const titleId = `approval-${approval.id}`;
  const decide = (decision: ApprovalDecision) => resolve.mutate({ id: approval.id, decision });
  const busy = resolve.isPending;
  const args = prettyArgs(approval.argsSummary);

  return (
    <article aria-labelledby={titleId} className={`card flex flex-col gap-2 ${compact ? 'p-3' : ''}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={titleId} className="font-mono text-sm font-semibold break-all">
          {approval.toolName}
        </h3>
        <span className={`rounded-full border px-2 text-xs ${RISK_TONE[risk] ?? 'border-border text-muted'}`}>risk: {risk}</span>
        {state.kind === 'pending' && <span className="ml-auto text-xs text-muted tabular-nums">{countdownText(approval.expiresAt, now)}</span>}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-muted">Agent</dt>
        <dd className="break-all">{approval.agentId ?? 'unknown agent'}</dd>
        <dt className="text-muted">Reason</dt>
        <dd>{approval.reason ?? 'none given'}</dd>
        {approval.taskId && (
          <>
            <dt className="text-muted">Task</dt>
            <dd className="break-all">{approval.taskId}</dd>
          </>
        )}
      </dl>
      {compact ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-muted">Arguments (masked)</summary>
          <pre tabIndex={0} className="mt-1 max-h-40 overflow-auto rounded bg-surface-2 p-2 text-xs whitespace-pre-wrap break-all">{args}</pre>
        </details>
      ) : (
        <div className="text-sm">
          <p className="text-muted">Arguments (masked)</p>
          <pre tabIndex={0} className="mt-1 max-h-60 overflow-auto rounded bg-surface-2 p-2 text-xs whitespace-pre-wrap break-all">{args}</pre>
        </div>
      )}
      {state.kind === 'pending' && (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`Decide on ${approval.toolName}`}>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => decide('allow_once')}>
            Allow once
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => setConfirming(true)}>
            Always allow
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => decide('deny')}>
            Deny
          </button>
        </div>
      )}
      {state.kind === 'expired' && <Outcome text="Expired: the agent was told no. It can ask again." tone="text-muted" />}
      {state.kind === 'resolved' && (
        <Outcome text={DECISION_LABEL[state.decision]} tone={state.decision === 'deny' ? 'text-danger' : 'text-ok'} />
      )}
      {state.kind !== 'pending' && onDismiss && (
        <button type="button" className="btn self-start" onClick={onDismiss} aria-describedby={titleId}>
          Dismiss
        </button>
      )}
      {resolve.error && (
        <p role="alert" className="text-sm text-danger">
          {resolve.error.message}
        </p>
      )}
      {confirming && (
        <Dialog
          open
          title={`Always allow ${approval.toolName}?`}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="btn" onClick={() => setConfirming(false)}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => {
                  setConfirming(false);
                  decide('allow_always');
                }}
              >
                Always allow
              </button>
            </>
          }
        >
          <p className="text-sm">
            {approval.agentId ?? 'This agent'} will run <span className="font-mono">{approval.toolName}</span> from now on without asking,
            whatever the arguments. Only an agent with its own minted binding keeps this; others are still asked.
          </p>
        </Dialog>
      )}
    </article>
  );
}
