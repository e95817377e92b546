// The roster strip: each agent of the chat with a live status dot; clicking
// one sends the next messages to that agent (`targetAgentId`), clicking it
// again (or removing the chip in the composer) ends that.
import type { AgentRunStatus } from '../../api/types.ts';
import { StatusDot, STATUS_WORD } from './StatusDot.tsx';
import type { Speaker } from './use-roster.ts';

export interface RosterProps {
  speakers: readonly Speaker[];
  statusOf: (agentId: string) => AgentRunStatus;
  targetId: string | null;
  onTarget: (agentId: string | null) => void;
}

export function Roster({ speakers, statusOf, targetId, onTarget }: RosterProps) {
  if (speakers.length === 0) return null;
  return (
    <section aria-labelledby="roster-title" className="border-b border-border px-3 py-2 md:px-4">
      <h2 id="roster-title" className="sr-only">
        Team members
      </h2>
      <ul className="flex flex-wrap gap-2">
        {speakers.map((s) => {
          const status = statusOf(s.id);
          const on = targetId === s.id;
          return (
            <li key={s.id}>
              <button
                type="button"
                aria-pressed={on}
                title={on ? `Stop sending only to ${s.name}` : `Send your messages to ${s.name}`}
                onClick={() => onTarget(on ? null : s.id)}
                data-agent-id={s.id}
                className={`flex items-center gap-2 rounded-full border px-3 py-1 text-sm ${on ? 'border-accent bg-surface-2 font-semibold' : 'border-border bg-surface hover:bg-surface-2'}`}
              >
                <StatusDot status={status} />
                <span>{s.name}</span>
                {s.isLead && <span className="text-xs text-muted"> (lead)</span>}
                <span className="sr-only">, {STATUS_WORD[status]}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
