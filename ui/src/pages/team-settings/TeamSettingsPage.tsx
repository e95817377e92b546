// `/teams/:id/settings`: a team's rules, lead brief, members and leader, the
// user's intro, orchestration, delegation and runaway-turn limits. Each
// section loads and fails on its own.
import { Link } from 'wouter';
import { useTeam } from '../../api/teams.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { IntroSection } from './IntroSection.tsx';
import { DelegationSection } from './DelegationSection.tsx';
import { LeadBriefSection } from './LeadBriefSection.tsx';
import { MembersSection } from './MembersSection.tsx';
import { OrchestrationSection } from './OrchestrationSection.tsx';
import { RulesSection } from './RulesSection.tsx';
import { RunawayLimitsSection } from './RunawayLimitsSection.tsx';

export default function TeamSettingsPage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? '';
  const { team, assignments, isPending, error, notFound, refetch } = useTeam(id);
  const base = `/teams/${encodeURIComponent(id)}`;
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="page-title mr-auto">Team settings</h1>
        <nav aria-label="Team" className="flex gap-2">
          <Link href={base} className="btn">
            Chat
          </Link>
          <Link href={`${base}/board`} className="btn">
            Board
          </Link>
          <Link href="/teams" className="btn">
            All teams
          </Link>
        </nav>
      </div>
      {isPending ? (
        <Loading what="team" />
      ) : error ? (
        <ErrorState error={error} retry={refetch} />
      ) : notFound || !team ? (
        <div role="alert" className="card">
          <p className="font-medium">No team has this id.</p>
          <p className="mt-1 text-sm text-muted">
            It may have been deleted. <Link href="/teams" className="text-accent underline">Go to the teams</Link>.
          </p>
        </div>
      ) : (
        <>
          <p className="flex items-center gap-2 text-lg">
            <span aria-hidden="true" className="grid size-8 place-items-center rounded-md" style={{ backgroundColor: team.color }}>
              {team.icon}
            </span>
            <span className="font-semibold">{team.name}</span>
            {team.isArchived === 1 && <span className="rounded-full border border-border px-2 text-xs">Archived</span>}
          </p>
          <RulesSection teamId={team.id} />
          <MembersSection team={team} memberIds={assignments.map((a) => a.agentId)} />
          <LeadBriefSection teamId={team.id} />
          <IntroSection teamId={team.id} />
          <OrchestrationSection teamId={team.id} />
          <DelegationSection teamId={team.id} />
          <RunawayLimitsSection teamId={team.id} />
        </>
      )}
    </section>
  );
}
