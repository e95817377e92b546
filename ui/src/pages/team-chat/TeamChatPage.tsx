// A team's chat (`/teams/:id`, the default team view): the onboarding gate
// on first use, then the roster, the transcript and the composer, the team's
// tasks and pending approvals, and links to its board and settings.
import { Link } from 'wouter';
import { useOnboarding, usePatchOnboarding } from '../../api/team-settings.ts';
import { useTeam } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { ChatView } from './ChatView.tsx';
import { OnboardingGate } from './Onboarding.tsx';
import { useRoster } from './use-roster.ts';

function Header({ team }: { team: Team }) {
  const base = `/teams/${encodeURIComponent(team.id)}`;
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-border bg-surface px-3 py-2 md:px-4">
      <h1 className="page-title min-w-0 flex-1 truncate">
        <span aria-hidden="true">{team.icon} </span>
        {team.name}
        {team.isArchived === 1 && <span className="ml-2 text-sm font-normal text-muted">(archived)</span>}
      </h1>
      <nav aria-label="Team" className="flex gap-3 text-sm">
        <Link href={`${base}/board`} className="text-accent underline">
          Board
        </Link>
        <Link href={`${base}/settings`} className="text-accent underline">
          Settings
        </Link>
      </nav>
    </header>
  );
}

function TeamChat({ team }: { team: Team }) {
  const roster = useRoster(team);
  const query = useOnboarding(team.id);
  const patch = usePatchOnboarding(team.id);
  let body;
  if (query.isPending || roster.isPending) body = <Loading what="the team" />;
  else if (query.error) body = <ErrorState error={query.error} retry={() => void query.refetch()} />;
  else if (roster.error) body = <ErrorState error={roster.error} retry={roster.refetch} />;
  else if (!query.data.agentsIntroduced || !query.data.userIntroduced) body = <OnboardingGate state={query.data} speakers={roster.speakers} patch={patch} />;
  else body = <ChatView team={team} roster={roster} />;
  return (
    <section className="flex h-full min-h-0 flex-col">
      <Header team={team} />
      {body}
    </section>
  );
}

export default function TeamChatPage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? '';
  const { team, isPending, error, notFound, refetch } = useTeam(id);
  if (team) return <TeamChat key={team.id} team={team} />;
  return (
    <section className="p-4 md:p-6">
      <h1 className="page-title">{notFound ? 'Team not found' : 'Team chat'}</h1>
      {isPending ? (
        <Loading what="the team" />
      ) : error ? (
        <ErrorState error={error} retry={refetch} />
      ) : (
        <Empty title="No team has this id">
          It may have been deleted.{' '}
          <Link href="/teams" className="text-accent underline">
            See all teams
          </Link>
        </Empty>
      )}
    </section>
  );
}
