// The task board (the spec says the group exists but does not show it;
// svc's design is in the README's "Board" section). Routes only parse and
// reply: the rules live in shared/board/.
import type { FastifyInstance } from 'fastify';
import {
  ClaimSchema, CommentSchema, DelegateSchema, DependencySchema, TaskCreateSchema, TaskListQuerySchema, TaskPatchSchema,
} from '../../../shared/board/schemas.ts';
import { BOARD_MESSAGES } from '../../../shared/board/transitions.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

const ID_REQUIRED = 'task id required';
const BODY_REQUIRED = 'JSON object body required';
const json = { config: { badJsonMessage: BODY_REQUIRED } };

type P = { Params: { id?: string; dependsOnTaskId?: string } };

export function boardRoutes(app: FastifyInstance, { domain: { board } }: AppDeps): void {
  const body = (b: unknown) => objectBody(b, BODY_REQUIRED);
  const taskId = (p: P['Params']) => requireParam(p.id, ID_REQUIRED);

  app.get('/api/tasks', async (req) => ({ tasks: board.list(parseOr400(TaskListQuerySchema, req.query)) }));

  app.post('/api/tasks', json, async (req) => ({ task: board.create(parseOr400(TaskCreateSchema, body(req.body))) }));

  app.get<P>('/api/tasks/:id', async (req) => {
    const task = board.get(taskId(req.params));
    if (!task) throw new HttpError(404, BOARD_MESSAGES.notFound);
    return { task, openBlockers: board.openBlockers(task.id) };
  });

  app.patch<P>('/api/tasks/:id', json, async (req) => ({
    task: board.update(taskId(req.params), parseOr400(TaskPatchSchema, body(req.body))),
  }));

  app.post<P>('/api/tasks/:id/claim', json, async (req) => ({
    task: board.claim(taskId(req.params), parseOr400(ClaimSchema, body(req.body)).agentId),
  }));

  app.post<P>('/api/tasks/:id/dependencies', json, async (req) =>
    board.linkDependency(taskId(req.params), parseOr400(DependencySchema, body(req.body)).dependsOnTaskId),
  );

  app.delete<P>('/api/tasks/:id/dependencies/:dependsOnTaskId', async (req) =>
    board.unlinkDependency(taskId(req.params), requireParam(req.params.dependsOnTaskId, 'dependsOnTaskId required')),
  );

  app.post<P>('/api/tasks/:id/delegate', json, async (req) => ({
    task: board.delegate(taskId(req.params), parseOr400(DelegateSchema, body(req.body))),
  }));

  app.get<P>('/api/tasks/:id/comments', async (req) => ({ comments: board.comments(taskId(req.params)) }));

  app.post<P>('/api/tasks/:id/comments', json, async (req) => ({
    comment: board.comment(taskId(req.params), parseOr400(CommentSchema, body(req.body))),
  }));
}
