// Spec "Smaller resources", standing exec grants. (Being written.)
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function execAllowlistRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
