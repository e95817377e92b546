// The team chat's inline approval tray: the team's pending approvals (rows
// whose agent is a member of the team, or its leader), compact and
// resolvable in place, plus those settled here until dismissed. Renders
// nothing when the team has none. The team's members come from the live
// teams list (api/teams.ts), the cache entry the team pages read too.
import { Link } from 'wouter';
import { useTeams } from '../../api/teams.ts';
import { ApprovalCard } from './ApprovalCard.tsx';
import { teamApprovals } from './logic.ts';
import { dismissSettled, useApprovals } from './settled.ts';

export function ApprovalTray({ teamId }: { teamId: string }) {
  const { pending, settled } = useApprovals();
  const teams = useTeams({ includeArchived: false });
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
