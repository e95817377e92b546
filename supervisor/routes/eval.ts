// Spec "Observability": POST /api/eval/smoke. (Being written.)
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function evalRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
