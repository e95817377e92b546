// Spec "Smaller resources", exec settings. (Being written.)
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function execSettingsRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
