// The team chat stream's tier 2 (spec "GET /api/teams/:id/chat/stream"):
// ephemeral named frames without an id line (`delta`, `status`, `board`,
// `room`), fanned out to the open streams of one team. Nothing is kept: a
// frame published while no stream of the team is open is gone, and a client
// reconciles by reloading (deltas are replaced by the committed entry, board
// changes by a board reload). Each frame is encoded once per publish, however
// many streams take it.
import type { TeamFrameHub, TeamFrameName, TeamFramePayloads } from '../services/team-stream-sources.ts';
import { frameEvent } from './sse.ts';

/** A stream's writer: false means the stream is closed (it is then dropped). */
export type FrameSink = (chunk: string) => boolean;

/** Encodes one named frame (also for a stream's own status snapshot on connect). */
export function teamFrame<E extends TeamFrameName>(event: E, payload: TeamFramePayloads[E]): string {
  return frameEvent(event, JSON.stringify(payload));
}

export class TeamFrames implements TeamFrameHub {
  private readonly byTeam = new Map<string, Set<FrameSink>>();

  /** Adds a stream of `teamId`; the returned function removes it. */
  subscribe(teamId: string, sink: FrameSink): () => void {
    let sinks = this.byTeam.get(teamId);
    if (!sinks) this.byTeam.set(teamId, (sinks = new Set()));
    sinks.add(sink);
    return () => this.drop(teamId, sink);
  }

  /** Whether any stream of the team is open (publishers skip building a frame nobody takes). */
  has(teamId: string): boolean {
    return this.byTeam.has(teamId);
  }

  /** Open streams of one team, or of every team. */
  count(teamId?: string): number {
    if (teamId !== undefined) return this.byTeam.get(teamId)?.size ?? 0;
    let n = 0;
    for (const s of this.byTeam.values()) n += s.size;
    return n;
  }

  publish<E extends TeamFrameName>(teamId: string, event: E, payload: TeamFramePayloads[E]): void {
    const sinks = this.byTeam.get(teamId);
    if (!sinks) return;
    const chunk = teamFrame(event, payload);
    for (const sink of [...sinks]) if (!sink(chunk)) this.drop(teamId, sink);
  }

  private drop(teamId: string, sink: FrameSink): void {
    const sinks = this.byTeam.get(teamId);
    if (!sinks) return;
    sinks.delete(sink);
    if (sinks.size === 0) this.byTeam.delete(teamId);
  }
}
