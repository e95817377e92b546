// The wire shapes of spec "System (host and gateway)"'s gateway-config
// routes (supervisor/http/routes/system-config.ts): the bodies of POST
// configure-gateway and PATCH gateway-config, and the answers of GET and
// PATCH gateway-config and POST configure-gateway. The route parses and
// replies with these; the dashboard takes their types (ui/src/api/types.ts).
import { z } from 'zod';
import { DEFAULT_GATEWAY_PORT } from './config-file.ts';
import { GatewayConfigView } from './config-view.ts';

const nonBlank = z.string().trim().min(1);
const Port = z.number().int().min(1).max(65535);
// A wrong-typed optional field is ignored rather than rejected: the spec lists no 400 for it.
const ignoredIfInvalid = <S extends z.ZodType>(schema: S) => schema.optional().catch(undefined);

/**
 * POST configure-gateway, parsed into configureGateway's input: a field not
 * given (or wrong-typed) is null, the port the gateway's default. `provider`
 * is checked by the route with ProviderName: its 400 has its own message.
 */
export const ConfigureGatewayBody = z.object({
  provider: z.unknown().optional(),
  apiKey: ignoredIfInvalid(nonBlank).transform((v) => v ?? null),
  model: ignoredIfInvalid(nonBlank).transform((v) => v ?? null),
  gatewayPort: ignoredIfInvalid(Port).transform((v) => v ?? DEFAULT_GATEWAY_PORT),
});
export const ProviderName = nonBlank;

/** PATCH gateway-config: every field optional; an empty `key` removes that provider's key. */
export const GatewayConfigPatchBody = z.object({
  model: ignoredIfInvalid(nonBlank),
  fallbacks: ignoredIfInvalid(z.array(z.unknown()).transform((list) => list.filter((v): v is string => typeof v === 'string'))),
  gatewayPort: ignoredIfInvalid(Port),
  apiKeys: ignoredIfInvalid(z.array(z.object({ provider: nonBlank, key: z.string().trim() }).nullable().catch(null))),
  agentModel: ignoredIfInvalid(z.object({ agentId: nonBlank, model: z.string().trim().nullable() })),
  exec: ignoredIfInvalid(z.object({ ask: ignoredIfInvalid(nonBlank), security: ignoredIfInvalid(nonBlank) })),
  agentToAgent: ignoredIfInvalid(z.object({ enabled: z.boolean() })),
});
/** What a client sends (before the route's parse drops what does not fit). */
export type GatewayConfigPatch = z.input<typeof GatewayConfigPatchBody>;

/** A tools.exec policy value as shown: a scalar or null (an object there is not a policy and could hold anything). */
const ExecScalar = z.union([z.string(), z.number(), z.boolean()]).nullable();

/** GET gateway-config. */
export const GatewayConfigResponse = z.object({
  /** The allowlisted projection of openclaw.json (config-view.ts); null when there is none. */
  config: GatewayConfigView.nullable(),
  /** One `has<Provider>Key` flag per provider, plus hasGatewayToken. Values never leave. */
  env: z.record(z.string(), z.boolean()),
  /** The gateway's version as its hello said; null when not connected. */
  version: z.string().nullable(),
  execAsk: ExecScalar,
  execSecurity: ExecScalar,
});
export type GatewayConfigResponse = z.output<typeof GatewayConfigResponse>;

/** PATCH gateway-config's answer: `hotReloadHint` when a gateway listens on the configured port. */
export const GatewayConfigPatchResult = z.object({ ok: z.literal(true), hotReloadHint: z.literal(true).optional() });
export type GatewayConfigPatchResult = z.infer<typeof GatewayConfigPatchResult>;

/** POST configure-gateway's answer; the token went to settings and the gateway's .env only. */
export const ConfigureGatewayResult = z.object({ ok: z.literal(true), gatewayUrl: z.string() });
export type ConfigureGatewayResult = z.infer<typeof ConfigureGatewayResult>;
