// The teamchat MCP server (spec "Tools broker and MCP": team_chat_post,
// team_chat_subscribe). A session bound by `roomTeamId` AND
// `postAuthorAgentId` posts only to room `team:<roomTeamId>` as that author,
// whatever the arguments say, and each post appends a `team_chat_post`
// event. With either missing the session is unbound: room and author come
// from the arguments and no event is written. A minted binding (binding.ts)
// fixes the author even without a room: such a session posts as its agent
// to the room its arguments name, and its posts are logged as events too.
// Such a session is its agent (bound-identity.ts): an authorAgentId naming
// another agent is refused, where a session bound by the spec's query
// parameters alone ignores it (the spec's rule; those parameters make no
// identity). Such a session also reads and posts only in the rooms of its
// agent's teams (those whose roster holds it: a member, the leader, or the
// lead that answers there; issue 33 #6), whichever way the room was named.
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Domain } from '../domain.ts';
import { addressable, loadRoster } from '../team-chat/routing/answerer.ts';
import { boundAgentOf, otherAgentRefusal } from './bound-identity.ts';
import { errorResult, okResult, runTool, toolFailure } from './results.ts';
import {
  createTeamChatPosts, POST_TEXT_MAX, roomOf, SUBSCRIBE_LIMIT_DEFAULT, SUBSCRIBE_LIMIT_MAX, type TeamChatPost,
} from '../team-chat/room/posts.ts';
import type { McpBinding, McpServerFactory } from './types.ts';

export const SUBSCRIBE_WAIT_MAX_MS = 20_000;
const POLL_MS = 250;

const Id = z.string().trim().min(1, 'must be a non-empty string').max(200);

export const TeamChatPostInput = z.object({
  text: z.string().trim().min(1, 'text is required').max(POST_TEXT_MAX, `text must be at most ${POST_TEXT_MAX} characters`),
  teamId: Id.optional().describe('the team whose room to post to (room team:<teamId>); ignored when the session is bound'),
  authorAgentId: Id.optional().describe('the posting agent; ignored when the session is bound to a room and author, refused when it names another agent than the one the session is bound to'),
});

export const TeamChatSubscribeInput = z.object({
  teamId: Id.optional().describe('the team whose room to read; ignored when the session is bound'),
  after: z.number().int().min(0).optional().describe('cursor: return posts with an id above this (default 0, from the start)'),
  limit: z.number().int().min(1).max(SUBSCRIBE_LIMIT_MAX).optional()
    .describe(`at most this many posts (1-${SUBSCRIBE_LIMIT_MAX}, default ${SUBSCRIBE_LIMIT_DEFAULT})`),
  waitMs: z.number().int().min(0).max(SUBSCRIBE_WAIT_MAX_MS).optional()
    .describe(`when nothing is new, wait up to this long for a post (0-${SUBSCRIBE_WAIT_MAX_MS} ms, default 0: answer at once)`),
});

export interface TeamChatBinding {
  teamId: string;
  authorAgentId: string;
}

/** The session's room and author when both binding parameters are present; null = unbound. */
export function teamChatBinding(binding: McpBinding): TeamChatBinding | null {
  const teamId = binding.roomTeamId;
  const authorAgentId = binding.postAuthorAgentId;
  return teamId && authorAgentId ? { teamId, authorAgentId } : null;
}

/** Whether `agentId` is on the team's roster: its room is one of the agent's rooms. */
const onTeam = (domain: Domain, teamId: string, agentId: string): boolean => addressable(loadRoster(domain, teamId)).some((a) => a.id === agentId);

const notItsTeam = (agentId: string, teamId: string) =>
  errorResult(`this session is bound to agent ${agentId}: team ${teamId} is not one of its teams, so its room is closed to this session`, { status: 403 });

const UNBOUND_POST = 'teamId and authorAgentId are required: this session is not bound to a room and author';
const UNBOUND_READ = 'teamId is required: this session is not bound to a room';

export const createTeamChatServer: McpServerFactory = (ctx, binding) => {
  const bound = teamChatBinding(binding);
  // The author a minted binding vouches for (also when it left the room open).
  const mintedAuthor = boundAgentOf('teamchat', binding);
  const posts = createTeamChatPosts(ctx);
  const server = new McpServer({ name: 'svc-teamchat', version: ctx.config.version });

  server.registerTool(
    'team_chat_post',
    {
      description: bound
        ? `Post a message to your team's chat room (team:${bound.teamId}) as ${bound.authorAgentId}.`
        : mintedAuthor
          ? `Post a message to a team chat room (team:<teamId>) as ${mintedAuthor}.`
          : 'Post a message to a team chat room (team:<teamId>) as authorAgentId.',
      inputSchema: TeamChatPostInput,
    },
    (args) =>
      runTool(ctx, 'team_chat_post', () => {
        const refused = otherAgentRefusal(mintedAuthor, args, ['authorAgentId']);
        if (refused) return refused;
        const author = mintedAuthor ?? args.authorAgentId;
        const who = bound ?? (args.teamId && author ? { teamId: args.teamId, authorAgentId: author } : null);
        if (!who) return errorResult(mintedAuthor ? UNBOUND_READ : UNBOUND_POST, { status: 400 });
        if (mintedAuthor && !onTeam(ctx.domain, who.teamId, mintedAuthor)) return notItsTeam(mintedAuthor, who.teamId);
        const post = posts.post({ ...who, text: args.text, emitEvent: bound !== null || mintedAuthor !== null });
        return okResult({ post, bound: bound !== null });
      }),
  );

  server.registerTool(
    'team_chat_subscribe',
    {
      description:
        'Read posts of a team chat room after a cursor, oldest first. Answers at once with what exists (possibly none) unless waitMs asks to wait for a first new post. Pass the returned cursor as `after` next time.',
      inputSchema: TeamChatSubscribeInput,
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      const teamId = bound?.teamId ?? args.teamId;
      if (!teamId) return errorResult(UNBOUND_READ, { status: 400 });
      if (mintedAuthor && !onTeam(ctx.domain, teamId, mintedAuthor)) return notItsTeam(mintedAuthor, teamId);
      const room = roomOf(teamId);
      const after = args.after ?? 0;
      const limit = args.limit ?? SUBSCRIBE_LIMIT_DEFAULT;
      const deadline = Date.now() + (args.waitMs ?? 0);
      try {
        let rows: TeamChatPost[] = posts.after(room, after, limit + 1);
        while (rows.length === 0 && Date.now() < deadline && !extra.signal.aborted) {
          await sleep(Math.min(POLL_MS, deadline - Date.now()), undefined, { signal: extra.signal }).catch(() => {
            // Aborted (the client cancelled or the session closed): answer with what exists.
          });
          rows = posts.after(room, after, limit + 1);
        }
        const page = rows.slice(0, limit);
        const cursor = page.length > 0 ? (page[page.length - 1] as TeamChatPost).id : after;
        return okResult({ room, posts: page, cursor, hasMore: rows.length > limit });
      } catch (err) {
        return toolFailure(ctx, 'team_chat_subscribe', err);
      }
    },
  );

  return server;
};
