// The named frames of a team's chat stream (docs/api.md, "Team chat"), one
// zod schema each. The team-chat worker's `delta` and `status` events carry
// them (with the team's id), the supervisor fans them out typed by them, and
// the dashboard takes its frame types from them (type-only: no zod in the
// bundle; it still reads each frame defensively).
import { z } from 'zod';
import { AgentRunStatus } from './schemas.ts';

export const TeamStreamFrames = {
  /** The whole running text of a run so far (replace, not append); agentId is the speaker's svc id. */
  delta: z.object({ sessionKey: z.string(), runId: z.string(), text: z.string(), agentId: z.string() }),
  status: z.object({ agentId: z.string(), status: AgentRunStatus }),
  /** A board row of the team; `{ id }` alone when the task is gone. */
  board: z.object({
    id: z.string(),
    title: z.string().optional(),
    status: z.string().optional(),
    assigneeAgentId: z.string().nullable().optional(),
    parentTaskId: z.string().nullable().optional(),
    createdAt: z.number().optional(),
    updatedAt: z.number().optional(),
  }),
  /** A post in the team's peer-chat room. */
  room: z.object({ id: z.number(), authorAgentId: z.string(), text: z.string(), createdAt: z.number(), exchangeId: z.string().nullable() }),
};

export type TeamStreamFrameName = keyof typeof TeamStreamFrames;
export type TeamStreamFrame<K extends TeamStreamFrameName> = z.infer<(typeof TeamStreamFrames)[K]>;
export type TeamStreamFramePayloads = { [K in TeamStreamFrameName]: TeamStreamFrame<K> };
