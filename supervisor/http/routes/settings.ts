// GET/POST /api/settings (spec "Settings and health"). The raw gateway token
// is never part of any reply. A failure to read or save is the one error
// handler's 500 with the spec's fixed message (the cause goes to the log).
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../http-error.ts';

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
    /** The origin the gateway URL moved to without a token of its own (shared/settings/resolve.ts); absent otherwise. */
    tokenNeededFor: { type: 'string' },
    firstRunDismissedAt: { type: ['number', 'null'] },
  },
  required: ['gatewayUrl', 'hasToken', 'firstRunDismissedAt'],
  additionalProperties: false,
} as const;

export function settingsRoutes(app: FastifyInstance, { settings, gatewayLink }: AppDeps): void {
  // A synchronous handler: no promise per request on the dashboard's most-polled route.
  const readConfig = { errorReply: { unexpected: { message: 'Failed to load settings' } } };
  app.get('/api/settings', { schema: { response: { 200: SettingsViewResponse } }, config: readConfig }, (_req, reply) => {
    void reply.send(settings.view());
  });

  const saveConfig = { badJsonMessage: 'JSON body required', errorReply: { unexpected: { message: 'Failed to save settings' } } };
  app.post('/api/settings', { config: saveConfig }, async (req) => {
    const parsed = settings.validate(req.body);
    if (!parsed.ok) throw badRequest(parsed.error);
    settings.save(parsed.patch);
    if (parsed.patch.gatewayUrl !== undefined || parsed.patch.gatewayToken !== undefined) gatewayLink.reconfigure();
    return { ok: true };
  });
}
