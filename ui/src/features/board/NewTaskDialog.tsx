// "New task": title, description, team (on /board), assignee and an optional
// parent, POST /api/tasks. The server's message is shown as it is.
import { useState, type FormEvent } from 'react';
import { useCreateTask } from '../../api/board.ts';
import type { Task } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';

export interface NewTaskDialogProps {
  open: boolean;
  /** The team board's team (fixed), or null on /board (a choice, `defaultTeam` first). */
  fixedTeam: string | null;
  defaultTeam: string | null;
  teams: ReadonlyArray<{ id: string; name: string }>;
  agentNames: ReadonlyMap<string, string>;
  tasks: readonly Task[];
  onClose: () => void;
  onCreated: (task: Task) => void;
}

export function NewTaskDialog(props: NewTaskDialogProps) {
  return (
    <Dialog open={props.open} title="New task" onClose={props.onClose}>
      {props.open && <NewTaskForm {...props} />}
    </Dialog>
  );
}

function NewTaskForm({ fixedTeam, defaultTeam, teams, agentNames, tasks, onClose, onCreated }: NewTaskDialogProps) {
  const create = useCreateTask();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [team, setTeam] = useState(fixedTeam ?? defaultTeam ?? '');
  const [assignee, setAssignee] = useState('');
  const [parent, setParent] = useState('');
  const teamId = fixedTeam ?? (team || null);
  const parents = tasks.filter((t) => t.teamId === teamId);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      {
        title,
        ...(description ? { description } : {}),
        teamId,
        assigneeAgentId: assignee || null,
        ...(parent ? { parentTaskId: parent } : {}),
      },
      { onSuccess: onCreated },
    );
  };
  return (
    <form className="flex flex-col gap-3" onSubmit={submit}>
      <label className="flex flex-col gap-1 text-sm">
        Title
        <input className="input" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={500} autoComplete="off" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Description (optional)
        <textarea className="input" rows={4} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      {fixedTeam === null && (
        <label className="flex flex-col gap-1 text-sm">
          Team
          <select className="input" value={team} onChange={(e) => setTeam(e.target.value)}>
            <option value="">No team</option>
            {teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex flex-col gap-1 text-sm">
        Assignee
        <select className="input" value={assignee} onChange={(e) => setAssignee(e.target.value)}>
          <option value="">Unassigned</option>
          {[...agentNames.entries()].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Parent task (optional)
        <select className="input" value={parent} onChange={(e) => setParent(e.target.value)}>
          <option value="">None</option>
          {parents.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
      </label>
      <FormFooter error={create.error} onCancel={onClose} submitLabel="Create task" pending={create.isPending} />
    </form>
  );
}
