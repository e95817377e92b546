// Spec "Teams": the peer-chat room. GET /api/team-chat reads a team's room
// past a cursor; POST /api/team-chat/exchange starts one bounded exchange
// between two agents of a team (the host runs it; each reply becomes a room
// post). The spec leaves the shapes to svc: docs/api.md documents them.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  EXCHANGE_TURNS_DEFAULT,
  EXCHANGE_TURNS_MAX,
  ExchangeStart,
  ROOM_LIMIT_DEFAULT,
  ROOM_LIMIT_MAX,
  RoomQuery,
  TEAM_CHAT_MESSAGES as M,
} from '../../../shared/team-chat/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, HttpError } from '../http-error.ts';
import { objectBody, parseOr400 } from '../validate.ts';
import { requireOrchestrated } from './team-chat.ts';

const nonBlank = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** A query number: its integer part when finite, else undefined (the caller's default). */
const queryNumber = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined), z.number().finite().optional().catch(undefined));

/** `since` defaults to 0 and a bad one is 0; `limit` defaults to 100 and is clamped to 1..500. */
const RoomQueryIn = z.object({
  teamId: z.string().refine((v) => v.trim() !== ''),
  since: queryNumber.transform((v) => (v === undefined || v < 0 ? 0 : Math.floor(v))),
  limit: queryNumber.transform((v) => (v === undefined ? ROOM_LIMIT_DEFAULT : Math.min(ROOM_LIMIT_MAX, Math.max(1, Math.floor(v))))),
});

export function teamChatRoomRoutes(app: FastifyInstance, { settingsTable, teamChat, domain }: AppDeps): void {
  app.get('/api/team-chat', async (req) => {
    const q = RoomQuery.parse(parseOr400(RoomQueryIn, req.query ?? {}, M.roomTeamIdRequired));
    const posts = teamChat.reads.room(q);
    return { posts, cursor: posts[posts.length - 1]?.id ?? q.since };
  });

  app.post('/api/team-chat/exchange', { config: { badJsonMessage: M.exchangeFieldsRequired } }, async (req, reply) => {
    const body = objectBody(req.body, M.exchangeFieldsRequired);
    const { teamId, fromAgentId, toAgentId, topic } = body;
    if (!nonBlank(teamId) || !nonBlank(fromAgentId) || !nonBlank(toAgentId) || !nonBlank(topic)) throw badRequest(M.exchangeFieldsRequired);
    if (fromAgentId === toAgentId) throw badRequest(M.exchangeSameAgent);
    // Absent means the default; anything else (null included) must be a whole number in range.
    const turns = body.turns === undefined ? EXCHANGE_TURNS_DEFAULT : body.turns;
    if (typeof turns !== 'number' || !Number.isInteger(turns) || turns < 1 || turns > EXCHANGE_TURNS_MAX) throw badRequest(M.exchangeTurns);
    // What is left to refuse is a topic over its length bound: described by its schema.
    const start = parseOr400(ExchangeStart, { teamId, fromAgentId, toAgentId, topic: topic.trim(), turns });

    if (!domain.teams.exists(teamId)) throw new HttpError(404, M.teamNotFound);
    const roster = new Set(teamChat.reads.members(teamId));
    if (!roster.has(fromAgentId) || !roster.has(toAgentId)) throw new HttpError(404, M.agentNotOnTeam);
    requireOrchestrated(settingsTable, teamId);

    const { exchangeId } = await teamChat.exchange(start);
    return reply.code(202).send({ ok: true, exchangeId });
  });
}
