// Rename a team: PATCH /api/teams/:id { name }.
import { useState, type FormEvent } from 'react';
import { usePatchTeam } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';

export function RenameTeamDialog({ team, onClose, onRenamed }: { team: Team | null; onClose: () => void; onRenamed: (team: Team) => void }) {
  return (
    <Dialog open={team !== null} title="Rename team" onClose={onClose}>
      {team && <RenameForm key={team.id} team={team} onClose={onClose} onRenamed={onRenamed} />}
    </Dialog>
  );
}

function RenameForm({ team, onClose, onRenamed }: { team: Team; onClose: () => void; onRenamed: (team: Team) => void }) {
  const patch = usePatchTeam();
  const [name, setName] = useState(team.name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    patch.mutate({ id: team.id, name: name.trim() }, { onSuccess: onRenamed });
  };
  return (
    <form className="flex flex-col gap-4" onSubmit={submit}>
      <label className="flex flex-col gap-1 text-sm">
        New name
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} required autoComplete="off" />
      </label>
      <FormFooter error={patch.error} onCancel={onClose} submitLabel="Save name" pending={patch.isPending} />
    </form>
  );
}
