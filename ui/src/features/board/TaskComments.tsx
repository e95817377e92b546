// A task's comments, oldest first, and a form to add one (as a person on the
// dashboard: no author agent).
import { useState } from 'react';
import { useAddComment, useComments } from '../../api/board.ts';
import { ErrorState } from '../../components/States.tsx';

export function TaskComments({ taskId, agentNames }: { taskId: string; agentNames: ReadonlyMap<string, string> }) {
  const comments = useComments(taskId);
  const comment = useAddComment();
  const [body, setBody] = useState('');
  return (
    <section aria-labelledby="task-comments-title" className="flex flex-col gap-2">
      <h3 id="task-comments-title" className="font-semibold">
        Comments
      </h3>
      {comments.isPending ? (
        <p className="text-sm text-muted">Loading comments…</p>
      ) : comments.error ? (
        <ErrorState error={comments.error} retry={() => void comments.refetch()} />
      ) : comments.data.length === 0 ? (
        <p className="text-sm text-muted">No comments yet.</p>
      ) : (
        <ol className="flex flex-col gap-2" aria-label="Comments">
          {comments.data.map((c) => (
            <li key={c.id} className="rounded-md bg-surface-2 p-2 text-sm">
              <p className="text-xs text-muted">
                {c.authorAgentId === null ? 'You' : (agentNames.get(c.authorAgentId) ?? c.authorAgentId)} · {new Date(c.createdAt).toLocaleString()}
              </p>
              <p className="whitespace-pre-wrap">{c.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (body.trim()) comment.mutate({ id: taskId, body }, { onSuccess: () => setBody('') });
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          New comment
          <textarea className="input" rows={3} value={body} onChange={(e) => setBody(e.target.value)} />
        </label>
        <div>
          <button type="submit" className="btn" disabled={!body.trim() || comment.isPending}>
            Add comment
          </button>
        </div>
        {comment.error && (
          <p role="alert" className="text-sm text-danger">
            {comment.error.message}
          </p>
        )}
      </form>
    </section>
  );
}
