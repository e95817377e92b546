// A card of the gateway's Workboard on svc's board (issue 23 item 5): its
// title, a "Workboard" source badge, Workboard's own status and the
// assignee. It is not an svc task, so it opens its own small dialog, not the
// task drawer: the run it was dispatched to (session key and run id, as text:
// the dashboard has no run view to link), a move to any of Workboard's
// statuses, and Dispatch for a ready card. Both go to the gateway through svc.
import { useState } from 'react';
import type { WorkboardCard as Card } from '../../api/types.ts';
import { useDispatchWorkboardCard, useMoveWorkboardCard } from '../../api/workboard.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { workboardStatusLabel } from './workboard-cards.ts';

export interface WorkboardCardProps {
  card: Card;
  /** The assignee's display name, when svc knows the agent. */
  assigneeName?: string;
  onOpen: (id: string) => void;
}

export function WorkboardCardButton({ card, assigneeName, onOpen }: WorkboardCardProps) {
  const who = card.agentId === null ? 'Unassigned' : (assigneeName ?? card.agentId);
  return (
    <button
      type="button"
      className="card block w-full p-3 text-left hover:border-accent focus-visible:border-accent"
      onClick={() => onOpen(card.id)}
      data-workboard-card-id={card.id}
    >
      <span className="block font-medium break-words">{card.title}</span>
      <span className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-muted">
        <span className="rounded-full border border-border px-2 font-semibold text-text">Workboard</span>
        <span>{workboardStatusLabel(card.status)}</span>
        <span aria-hidden="true">·</span>
        <span>{who}</span>
      </span>
    </button>
  );
}

export interface WorkboardCardDialogProps {
  card: Card | null;
  statuses: readonly string[];
  assigneeName?: string;
  onClose: () => void;
}

export function WorkboardCardDialog({ card, statuses, assigneeName, onClose }: WorkboardCardDialogProps) {
  const move = useMoveWorkboardCard();
  const dispatch = useDispatchWorkboardCard();
  const [to, setTo] = useState('');
  const [notice, setNotice] = useState('');
  const busy = move.isPending || dispatch.isPending;
  const error = move.error ?? dispatch.error;
  const close = () => {
    move.reset();
    dispatch.reset();
    setTo('');
    setNotice('');
    onClose();
  };
  const fresh = () => {
    move.reset();
    dispatch.reset();
    setNotice('');
  };
  const targets = card === null ? [] : statuses.filter((s) => s !== card.status);

  return (
    <Dialog
      open={card !== null}
      title={card?.title ?? ''}
      onClose={close}
      actions={
        <button type="button" className="btn" onClick={close}>
          Close
        </button>
      }
    >
      {card && (
        <div className="flex flex-col gap-3 text-sm">
          <p className="text-muted">A card on the gateway&apos;s Workboard: moves and dispatches go to the gateway.</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted">Status</dt>
            <dd>{workboardStatusLabel(card.status)}</dd>
            <dt className="text-muted">Assignee</dt>
            <dd>{card.agentId === null ? 'Unassigned' : (assigneeName ?? card.agentId)}</dd>
            <dt className="text-muted">Run</dt>
            <dd className="break-all">
              {card.sessionKey === null && card.runId === null ? (
                'Not dispatched'
              ) : (
                <>
                  {card.sessionKey !== null && (
                    <span className="block">
                      Session <code>{card.sessionKey}</code>
                    </span>
                  )}
                  {card.runId !== null && (
                    <span className="block">
                      Run <code>{card.runId}</code>
                    </span>
                  )}
                </>
              )}
            </dd>
          </dl>
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (!to) return;
              fresh();
              move.mutate({ id: card.id, status: to }, {
                onSuccess: (c) => {
                  setTo('');
                  setNotice(`Moved to ${workboardStatusLabel(c.status)}.`);
                },
              });
            }}
          >
            <label className="flex min-w-48 flex-1 flex-col gap-1">
              Move to
              <select className="input" value={to} onChange={(e) => setTo(e.target.value)}>
                <option value="">Choose a status</option>
                {targets.map((s) => (
                  <option key={s} value={s}>
                    {workboardStatusLabel(s)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn" disabled={busy || !to}>
              Move
            </button>
          </form>
          {card.status === 'ready' && (
            <div>
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => {
                  fresh();
                  dispatch.mutate(card.id, { onSuccess: () => setNotice('Dispatched: the agent is working on it.') });
                }}
              >
                Dispatch
              </button>
            </div>
          )}
          <p role="status" aria-live="polite" className="text-muted empty:hidden">
            {notice}
          </p>
          {error && (
            <p role="alert" className="text-danger">
              {error.message}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
