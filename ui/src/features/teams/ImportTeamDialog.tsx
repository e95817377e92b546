// "Import from gateway": the gateway agents that may hand work to others
// (a coordinator made by `openclaw agents team create`, or any agent with
// `subagents.allowAgents`). One click makes an svc team of it (the agent
// leads, the agents it may spawn are the members) and opens the team.
import { useImportCandidates } from '../../api/gateway-agents.ts';
import { useImportTeam } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';

export function ImportTeamDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (team: Team) => void }) {
  const candidates = useImportCandidates(open);
  const importTeam = useImportTeam();
  const close = () => {
    importTeam.reset();
    onClose();
  };
  const view = candidates.data;
  const leads = (view?.agents ?? []).filter((a) => (a.allowAgents ?? []).length > 0);
  return (
    <Dialog
      open={open}
      title="Import a team from the gateway"
      onClose={close}
      actions={
        <button type="button" className="btn" onClick={close}>
          Close
        </button>
      }
    >
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-muted">
          An agent that may hand work to others on the gateway becomes the team&apos;s lead, and those agents its members.
        </p>
        {candidates.isPending ? (
          <Loading what="gateway agents" />
        ) : candidates.error ? (
          <ErrorState error={candidates.error} retry={() => void candidates.refetch()} />
        ) : !view?.reachable ? (
          <p role="alert" className="text-danger">
            The gateway is not reachable: start it on the Gateway page.
          </p>
        ) : leads.length === 0 ? (
          <Empty title="Nothing to import">
            <p>
              No gateway agent may hand work to others. Make one with <code>openclaw agents team create</code>.
            </p>
          </Empty>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Gateway agents that lead others">
            {leads.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center gap-2 rounded-md border border-border p-2">
                <span className="mr-auto">
                  <span className="font-medium">{a.name}</span>
                  <span className="block text-muted">hands work to {(a.allowAgents ?? []).join(', ')}</span>
                </span>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={importTeam.isPending}
                  aria-label={`Import ${a.name} and its agents`}
                  onClick={() =>
                    importTeam.mutate(a.id, {
                      onSuccess: ({ team }) => {
                        close();
                        onImported(team);
                      },
                    })
                  }
                >
                  {importTeam.isPending && importTeam.variables === a.id ? 'Importing…' : 'Import'}
                </button>
              </li>
            ))}
          </ul>
        )}
        {importTeam.error && (
          <p role="alert" className="text-danger">
            {importTeam.error.message}
          </p>
        )}
      </div>
    </Dialog>
  );
}
