// Status, assignee and claim for one task. Only the moves the board's rule
// allows from the current status are offered; the server's refusal (no
// assignee, unfinished dependencies, a lost race) is shown as it comes.
import { useState } from 'react';
import { useClaimTask, usePatchTask } from '../../api/board.ts';
import type { Task } from '../../api/types.ts';
import { allowedMoves, STATUS_LABEL } from './statuses.ts';

export function TaskActions({ task, openBlockers, agentNames }: { task: Task; openBlockers: readonly string[]; agentNames: ReadonlyMap<string, string> }) {
  const patch = usePatchTask();
  const claim = useClaimTask();
  const [claimAs, setClaimAs] = useState(task.assigneeAgentId ?? '');
  const [notice, setNotice] = useState('');
  const moves = allowedMoves(task.status);
  const error = patch.error ?? claim.error;
  const busy = patch.isPending || claim.isPending;
  const agents = [...agentNames.entries()];
  // One message at a time: a new attempt clears the last answer.
  const fresh = () => {
    patch.reset();
    claim.reset();
    setNotice('');
  };

  return (
    <section aria-labelledby="task-status-title" className="flex flex-col gap-3">
      <h3 id="task-status-title" className="font-semibold">
        Status: {STATUS_LABEL[task.status]}
      </h3>
      {moves.length === 0 ? (
        <p className="text-sm text-muted">{STATUS_LABEL[task.status]} is final: the task cannot move any more.</p>
      ) : (
        <div className="flex flex-wrap gap-2" role="group" aria-label="Move the task">
          {moves.map((to) => (
            <button
              key={to}
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => {
                fresh();
                patch.mutate({ id: task.id, status: to }, { onSuccess: (t) => setNotice(`Moved to ${STATUS_LABEL[t.status]}.`) });
              }}
            >
              Move to {STATUS_LABEL[to]}
            </button>
          ))}
        </div>
      )}
      <label className="flex flex-col gap-1 text-sm">
        Assignee
        <select
          className="input"
          value={task.assigneeAgentId ?? ''}
          disabled={busy}
          onChange={(e) => {
            fresh();
            patch.mutate({ id: task.id, assigneeAgentId: e.target.value || null }, { onSuccess: () => setNotice('Assignee saved.') });
          }}
        >
          <option value="">Unassigned</option>
          {agents.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
          {task.assigneeAgentId !== null && !agentNames.has(task.assigneeAgentId) && <option value={task.assigneeAgentId}>{task.assigneeAgentId}</option>}
        </select>
      </label>
      {task.status === 'todo' && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!claimAs) return;
            fresh();
            claim.mutate({ id: task.id, agentId: claimAs }, { onSuccess: () => setNotice(`Claimed for ${agentNames.get(claimAs) ?? claimAs}: now in progress.`) });
          }}
        >
          <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
            Claim for
            <select className="input" value={claimAs} onChange={(e) => setClaimAs(e.target.value)}>
              <option value="">Choose an agent</option>
              {agents.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn" disabled={busy || !claimAs}>
            Claim
          </button>
        </form>
      )}
      {openBlockers.length > 0 && (
        <p className="text-sm text-warn">
          Waiting for {openBlockers.length === 1 ? '1 unfinished dependency' : `${openBlockers.length} unfinished dependencies`}: it cannot start until they are done.
        </p>
      )}
      <p role="status" aria-live="polite" className="text-sm text-muted empty:hidden">
        {notice}
      </p>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      )}
    </section>
  );
}
