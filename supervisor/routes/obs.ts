// Spec "Observability": events feed, traces, errors, fleet health, graph. (Being written.)
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function obsRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
