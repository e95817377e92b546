// GET/POST /api/settings (spec "Settings and health"). The raw gateway token
// is never part of any reply.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { badRequest, HttpError } from '../http-error.ts';

/**
 * The Settings view as a response schema: fastify compiles it into a fast
 * serializer (this route is polled by the launcher and the UI), and it is a
 * whitelist, so no other field (a token) can ever leave through this route.
 */
const SettingsViewResponse = {
  type: 'object',
  properties: {
    gatewayUrl: { type: 'string' },
    hasToken: { type: 'boolean' },
    firstRunDismissedAt: { type: ['number', 'null'] },
  },
  required: ['gatewayUrl', 'hasToken', 'firstRunDismissedAt'],
  additionalProperties: false,
} as const;

export function settingsRoutes(app: FastifyInstance, { settings, onGatewaySettingsChanged, logger }: AppDeps): void {
  // A synchronous handler: no promise per request on the dashboard's most-polled route.
  app.get('/api/settings', { schema: { response: { 200: SettingsViewResponse } } }, (_req, reply) => {
    let view;
    try {
      view = settings.view();
    } catch (err) {
      logger.error({ err }, 'settings read failed');
      throw new HttpError(500, 'Failed to load settings');
    }
    void reply.send(view);
  });

  app.post('/api/settings', { config: { badJsonMessage: 'JSON body required' } }, async (req) => {
    const parsed = settings.validate(req.body);
    if (!parsed.ok) throw badRequest(parsed.error);
    try {
      settings.save(parsed.patch);
    } catch (err) {
      logger.error({ err }, 'settings save failed');
      throw new HttpError(500, 'Failed to save settings');
    }
    if (parsed.patch.gatewayUrl !== undefined || parsed.patch.gatewayToken !== undefined) onGatewaySettingsChanged();
    return { ok: true };
  });
}
