// "New team": name, emoji icon, colour and the server-orchestrated switch
// (on by default), POST /api/teams. The server's message is shown as it is.
import { useState, type FormEvent } from 'react';
import { useCreateTeam } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';
import { DEFAULT_TEAM_ICON, TEAM_COLORS } from './team-colors.ts';

export function CreateTeamDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (team: Team) => void }) {
  const create = useCreateTeam();
  const [name, setName] = useState('');
  const [icon, setIcon] = useState(DEFAULT_TEAM_ICON);
  const [color, setColor] = useState(TEAM_COLORS[0]?.hex ?? '');
  const [orchestrated, setOrchestrated] = useState(true);

  const close = () => {
    create.reset();
    setName('');
    setIcon(DEFAULT_TEAM_ICON);
    setColor(TEAM_COLORS[0]?.hex ?? '');
    setOrchestrated(true);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), icon: icon.trim(), color, serverOrchestrated: orchestrated },
      {
        onSuccess: (team) => {
          close();
          onCreated(team);
        },
      },
    );
  };

  return (
    <Dialog open={open} title="New team" onClose={close}>
      <form className="flex flex-col gap-4" onSubmit={submit}>
        <label className="flex flex-col gap-1 text-sm">
          Name
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} required autoComplete="off" />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Icon (an emoji)
          <input className="input w-24 text-lg" value={icon} onChange={(e) => setIcon(e.target.value)} required maxLength={16} />
        </label>
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="mb-1">Colour</legend>
          <div className="flex flex-wrap gap-3">
            {TEAM_COLORS.map((c) => (
              <label key={c.hex} className="flex items-center gap-1.5">
                <input type="radio" name="team-color" value={c.hex} checked={color === c.hex} onChange={() => setColor(c.hex)} />
                <span aria-hidden="true" className="inline-block size-4 rounded-sm border border-border" style={{ backgroundColor: c.hex }} />
                {c.name}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5" checked={orchestrated} onChange={(e) => setOrchestrated(e.target.checked)} />
          <span>
            Server-orchestrated
            <span className="block text-muted">svc runs the team&apos;s chat: it hands your messages to the agents and keeps the board moving.</span>
          </span>
        </label>
        <FormFooter error={create.error} onCancel={close} submitLabel="Create team" pending={create.isPending} />
      </form>
    </Dialog>
  );
}
