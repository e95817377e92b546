// Spec "System (host and gateway)": configure-gateway, auto-configure-gateway,
// gateway-config GET/PATCH. (Being written.)
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function systemConfigRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
