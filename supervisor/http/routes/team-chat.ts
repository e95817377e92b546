// Spec "Teams": POST /api/teams/:id/chat (ingest, 202), POST
// /api/teams/:id/chat/stop and GET /api/teams/:id/chat/stream (SSE). The
// routes check and gate; the team-chat service hands the work to the host
// (the team-chat worker) and the run goes on detached: nothing here watches
// the request once the user entry is committed, so a client that leaves
// never aborts it.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isServerOrchestrated } from '../../../shared/teams/orchestration.ts';
import { TEAM_CHAT_MESSAGES as M } from '../../../shared/team-chat/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { catchUpThenFollow, frameRow, resumeCursor } from '../sse.ts';
import { teamFrame } from '../team-stream-hub.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

/** Rows per catch-up read (spec "Limits": chat stream batch). */
export const CHAT_CATCH_UP_BATCH = 500;

/** The spec: `message` required, trimmed, non-empty; the optional ids are ignored when not non-empty strings. */
const ChatBody = z.object({
  message: z.string().trim().min(1),
  targetAgentId: z.string().min(1).optional().catch(undefined),
  entryId: z.string().min(1).optional().catch(undefined),
});

const StreamQuery = z.object({ since: z.unknown().optional() });

interface IdParams {
  id?: string;
}

/** Spec "Team-scoped settings entries": only the literal `false` closes the chat gate (404). */
export function requireOrchestrated(settingsTable: AppDeps['settingsTable'], teamId: string): void {
  if (!isServerOrchestrated(settingsTable, teamId)) throw new HttpError(404, M.notOrchestrated);
}

export function teamChatRoutes(app: FastifyInstance, { settingsTable, sse, teamChat, hubs, domain }: AppDeps): void {
  const gate = (teamId: string) => requireOrchestrated(settingsTable, teamId);

  app.post<{ Params: IdParams }>('/api/teams/:id/chat', { config: { badJsonMessage: M.messageRequired } }, async (req, reply) => {
    const teamId = requireParam(req.params.id, M.teamIdRequired);
    const body = parseOr400(ChatBody, objectBody(req.body, M.messageRequired), M.messageRequired);
    gate(teamId);
    await teamChat.ingest({ teamId, message: body.message, targetAgentId: body.targetAgentId, entryId: body.entryId });
    return reply.code(202).send({ ok: true });
  });

  app.post<{ Params: IdParams }>('/api/teams/:id/chat/stop', async (req) => {
    const teamId = requireParam(req.params.id, M.teamIdRequired);
    gate(teamId);
    await teamChat.stop(teamId);
    return { ok: true };
  });

  // Not gated by the orchestration setting; an unknown team gets an open
  // stream with keepalives only. The session-key set is fixed at connect.
  app.get<{ Params: IdParams }>('/api/teams/:id/chat/stream', async (req, reply) => {
    const teamId = req.params.id ?? '';
    const { since } = StreamQuery.parse(req.query ?? {});
    const cursor = resumeCursor(req, since);
    const stream = sse.open(req, reply);
    if (teamId.trim() === '' || !domain.teams.exists(teamId)) return;
    const { reads } = teamChat;
    const keys = reads.sessionKeys(teamId);
    const keySet = new Set(keys);

    await catchUpThenFollow(
      stream,
      {
        newest: () => reads.maxChatId(),
        page: (from, upTo, limit) => reads.rowsAfter(keys, from, upTo, limit),
        cursorOf: (row) => row.id,
        frame: (row) => frameRow(row.id, row.entry),
        batch: CHAT_CATCH_UP_BATCH,
      },
      cursor,
      (from) => {
        const snapshot = reads.statuses(teamId).map((s) => teamFrame('status', s));
        if (snapshot.length > 0) stream.write(snapshot.join(''));
        const unsubscribeRows = hubs.chat.subscribe({
          cursor: from,
          // A native delegation's child (issue 23) may start after the connect: its rows are the team's by their entry.
          matches: (row) => keySet.has(row.sessionKey) || reads.isChildRow(teamId, row),
          write: (chunk) => stream.write(chunk),
        });
        const unsubscribeFrames = teamChat.frames.subscribe(teamId, (chunk) => stream.write(chunk));
        stream.onClose(() => {
          unsubscribeRows();
          unsubscribeFrames();
        });
      },
    );
  });
}
