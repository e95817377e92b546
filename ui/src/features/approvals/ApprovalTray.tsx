// The team chat's inline approval tray: the team's pending approvals (rows
// whose agent is a member of the team, or its leader), compact and
// resolvable in place, plus those settled here until dismissed. Renders
// nothing when the team has none. Also the feature's public surface for the
// Approvals page: useApprovals and ApprovalCard.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../../api/client.ts';
import type { TeamList } from '../../api/types.ts';
import { ApprovalCard } from './ApprovalCard.tsx';
import { dismissSettled, useApprovals } from './api.ts';
import { teamApprovals } from './logic.ts';

export { ApprovalCard } from './ApprovalCard.tsx';
export { useApprovals } from './api.ts';

/** The live teams list, under the teams feature's key (['teams', false]) so both share one cache entry. */
function useTeamList() {
  return useQuery({ queryKey: ['teams', false], queryFn: ({ signal }) => api<TeamList>('/api/teams', { signal }) });
}

export function ApprovalTray({ teamId }: { teamId: string }) {
  const { pending, settled } = useApprovals();
  const teams = useTeamList();
  const team = teams.data?.teams.find((t) => t.id === teamId);
  const assignments = teams.data?.assignments ?? [];
  const leader = team?.leaderAgentId ?? null;
  const open = teamApprovals(pending.data ?? [], teamId, assignments, leader);
  const done = teamApprovals(
    [...settled.values()].map((s) => s.approval),
    teamId,
    assignments,
    leader,
  ).filter((a) => !open.some((o) => o.id === a.id));
  if (open.length === 0 && done.length === 0) return null;
  return (
    <section aria-label="Approvals for this team" className="flex flex-col gap-2 border-b border-border bg-surface-2 p-3">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          {open.length === 0 ? 'No approvals waiting' : `${open.length} approval${open.length === 1 ? '' : 's'} waiting`}
        </h2>
        <Link href="/approvals" className="text-sm text-accent underline">
          All approvals
        </Link>
      </div>
      <div className="flex max-h-80 flex-col gap-2 overflow-auto">
        {open.map((a) => (
          <ApprovalCard key={a.id} approval={a} settled={settled.get(a.id)} compact />
        ))}
        {done.map((a) => (
          <ApprovalCard key={a.id} approval={a} settled={settled.get(a.id)} compact onDismiss={() => dismissSettled(a.id)} />
        ))}
      </div>
    </section>
  );
}
