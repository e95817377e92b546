// Delete a team, confirmed: the agents are kept (they leave the team; the
// spec's DELETE orphans them and never deletes them).
import { useDeleteTeam } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';

export function DeleteTeamDialog({ team, onClose, onDeleted }: { team: Team | null; onClose: () => void; onDeleted: (team: Team) => void }) {
  const remove = useDeleteTeam();
  const close = () => {
    remove.reset();
    onClose();
  };
  const n = team?.agentCount ?? 0;
  return (
    <Dialog
      open={team !== null}
      title={`Delete ${team?.name ?? 'team'}?`}
      onClose={close}
      actions={
        <>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={remove.isPending}
            onClick={() => team && remove.mutate(team.id, { onSuccess: () => onDeleted(team) })}
          >
            Delete team
          </button>
        </>
      }
    >
      <p className="text-sm">
        {n === 0
          ? 'It has no agents now. Deleting a team never deletes agents: they leave the team.'
          : `Its ${n === 1 ? 'agent is' : `${n} agents are`} kept: they leave the team and are not deleted.`}{' '}
        Its rules, onboarding and lead brief are deleted with it; its tasks are kept.
      </p>
      {remove.error && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {remove.error.message}
        </p>
      )}
    </Dialog>
  );
}
