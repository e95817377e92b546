// Delegation (issue 23): who each of the team's agents may hand work to on
// the gateway with `sessions_spawn`. svc writes the lists from the roster (the
// lead: its members; members: nothing, or each other with sub-delegation on);
// what is shown is what the gateway's config holds now.
import { useAgents } from '../../api/agents.ts';
import { useDelegation, useSetSubDelegation } from '../../api/team-settings.ts';
import { Section } from './Section.tsx';

export function DelegationSection({ teamId }: { teamId: string }) {
  const query = useDelegation(teamId);
  const save = useSetSubDelegation(teamId);
  const agents = useAgents();
  const view = query.data;
  const rows = Object.entries(view?.allowAgents ?? {});
  // The lists are keyed by gateway id: show the svc name where one agent has it.
  const nameOf = (gatewayId: string) => agents.data?.find((a) => (a.gatewayId ?? a.id) === gatewayId)?.name ?? gatewayId;
  return (
    <Section title="Delegation" id="delegation-title" state={query}>
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-1 size-4"
          checked={view?.subDelegation ?? false}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
        />
        <span>
          <span className="font-medium">Members may hand work to each other</span>
          <span className="block text-muted">
            The lead may always hand work to the team&apos;s members on the gateway. Turned on, each member may also start the
            others as sub-agents. svc writes this into the gateway&apos;s config; the gateway refuses anyone else.
          </span>
        </span>
      </label>
      <p role="status" className="text-sm text-muted empty:hidden">
        {save.isPending ? 'Saving…' : save.isSuccess ? (view?.subDelegation ? 'Sub-delegation is on.' : 'Sub-delegation is off.') : ''}
      </p>
      {save.error && (
        <p role="alert" className="text-sm text-danger">
          {save.error.message}
        </p>
      )}
      {view?.sync.error && (
        <p role="alert" className="text-sm text-danger">
          The gateway config was not updated: {view.sync.error}
        </p>
      )}
      {rows.length === 0 ? (
        <p className="text-sm text-muted">
          None of this team&apos;s agents is in the gateway&apos;s config yet, so there is nothing to show.
        </p>
      ) : (
        <table className="w-full text-left text-sm" aria-label="Who may hand work to whom">
          <thead>
            <tr>
              <th scope="col" className="py-1 font-medium">Agent</th>
              <th scope="col" className="py-1 font-medium">May hand work to</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([id, allowed]) => (
              <tr key={id} className="border-t border-border">
                <td className="py-1">{nameOf(id)}</td>
                <td className="py-1">{allowed.length === 0 ? <span className="text-muted">no one</span> : allowed.map(nameOf).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
