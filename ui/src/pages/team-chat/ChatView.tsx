// The chat once the gate is passed: roster, transcript, composer, and the
// side panel (tasks, approvals), which folds away below the md breakpoint.
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { AgentRunStatus, Team } from '../../api/types.ts';
import { anyoneRunning, groupDelegations, hasEarlier, transcriptItems } from '../../features/chat/index.ts';
import { Composer } from './Composer.tsx';
import { messageOf } from './messages.ts';
import { Roster } from './Roster.tsx';
import { asRunStatus } from './StatusDot.tsx';
import { TeamPanel } from './TeamPanel.tsx';
import { Transcript } from './Transcript.tsx';
import { useChat } from './use-chat.ts';
import { useLoadEarlier } from './use-load-earlier.ts';
import type { Roster as RosterState } from './use-roster.ts';

const joinNames = (names: string[]) => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

export function ChatView({ team, roster }: { team: Team; roster: RosterState }) {
  const { state, send, retry, discard, stop, stream } = useChat(team.id);
  const { speakers, lead } = roster;
  const [targetId, setTargetId] = useState<string | null>(null);
  const [follow, setFollow] = useState(0);
  const [panelOpen, setPanelOpen] = useState(false);
  const idsKey = speakers.map((s) => s.id).join('\n');
  const speakerIds = useMemo(() => (idsKey === '' ? [] : idsKey.split('\n')), [idsKey]);
  const earlier = useLoadEarlier(team.id, speakerIds);
  const namesKey = speakers.map((s) => `${s.id}\t${s.name}`).join('\n');
  const nameOf = useCallback(
    (agentId: string | null) => {
      if (agentId === null) return 'Team';
      const line = namesKey.split('\n').find((l) => l.startsWith(`${agentId}\t`));
      return line ? line.slice(agentId.length + 1) : agentId;
    },
    [namesKey],
  );
  const statusOf = (agentId: string): AgentRunStatus => state.statuses[agentId] ?? asRunStatus(speakers.find((s) => s.id === agentId)?.storedStatus);
  // Sub-agent work nests under its hand-over (issue 23).
  const view = useMemo(
    () => groupDelegations(transcriptItems(state), { live: state.live, statuses: state.statuses, stoppedChildKeys: state.stoppedChildKeys }),
    [state],
  );
  const target = speakers.find((s) => s.id === targetId) ?? null;
  const working = speakers.filter((s) => state.statuses[s.id] === 'running').map((s) => s.name);

  return (
    <div className="flex min-h-0 flex-1 flex-col md:flex-row">
      <div className="flex min-h-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-border px-3 py-1.5 md:hidden">
          <button type="button" className="btn py-1 text-xs" aria-expanded={panelOpen} aria-controls="team-panel" onClick={() => setPanelOpen(!panelOpen)}>
            {panelOpen ? 'Hide tasks and approvals' : 'Tasks and approvals'}
          </button>
        </div>
        <Roster speakers={speakers} statusOf={statusOf} targetId={target?.id ?? null} onTarget={setTargetId} />
        {stream.failed && (
          <div role="alert" className="flex items-center justify-between gap-3 border-b border-danger px-4 py-2 text-sm text-danger">
            <span>The server refused the live conversation (it may be at its limit of open streams).</span>
            <button type="button" className="btn" onClick={stream.retry}>
              Try again
            </button>
          </div>
        )}
        {speakers.length === 0 && (
          <p className="border-b border-border px-4 py-2 text-sm text-warn">
            No agent can answer in this team yet:{' '}
            <Link href={`/teams/${encodeURIComponent(team.id)}/settings`} className="underline">
              add one in the team&apos;s settings
            </Link>
            . Messages are kept.
          </p>
        )}
        <Transcript
          state={state}
          items={view.items}
          live={view.live}
          nameOf={nameOf}
          earlier={{ has: hasEarlier(state), busy: earlier.busy, error: earlier.error, load: earlier.load }}
          onRetry={retry}
          onDiscard={discard}
          followSignal={follow}
          // The snapshot has one status per agent: a team without any sends none.
          waiting={!state.synced && speakers.length > 0}
        />
        <p role="status" className="min-h-6 px-4 py-0.5 text-xs text-muted">
          {working.length > 0 ? `${joinNames(working)} ${working.length === 1 ? 'is' : 'are'} working…` : ''}
        </p>
        <Composer
          speakers={speakers}
          lead={lead}
          target={target}
          onClearTarget={() => setTargetId(null)}
          running={anyoneRunning(state)}
          onSend={(text) => {
            send(text, target?.id ?? null);
            setFollow((n) => n + 1);
          }}
          onStop={() => stop.mutate()}
          stopping={stop.isPending}
          stopError={stop.error ? messageOf(stop.error) : null}
        />
      </div>
      <aside
        id="team-panel"
        aria-label="Tasks and approvals"
        className={`${panelOpen ? 'block' : 'hidden'} order-first max-h-[45%] overflow-y-auto border-b border-border bg-surface md:order-none md:block md:max-h-none md:w-80 md:shrink-0 md:border-b-0 md:border-l`}
      >
        <TeamPanel teamId={team.id} nameOf={nameOf} />
      </aside>
    </div>
  );
}
