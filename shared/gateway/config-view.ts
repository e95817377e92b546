// What GET /api/system/gateway-config shows of `openclaw.json` (issue 15
// #13): an allowlist of the fields the dashboard edits or displays, each with
// its type, instead of the file minus a denylist. The gateway's config grows
// with every release and users keep their own keys in it (plugin passwords,
// channel bot tokens, inline env vars); none of that is named here, so none
// of it can leave. A field with the wrong type reads as absent.
//
// Shown: gateway port, bind and mode; the default model and fallbacks; each
// agent's model (agents.entries, and the legacy agents.list); tools.exec ask
// and security; tools.agentToAgent.enabled; tools.sessions.visibility; the
// configured models of each provider (id, name, context window, reasoning),
// with the provider's api and baseUrl (without user info, query or fragment).
// Never: the auth block, env, apiKey, headers, plugins, channels, anything else.
import { z } from 'zod';

const str = z.string().optional().catch(undefined);
const bool = z.boolean().optional().catch(undefined);
const strings = z
  .array(z.unknown())
  .transform((list) => list.filter((v): v is string => typeof v === 'string'))
  .optional()
  .catch(undefined);

/** The items of an array that fit `item`; the others are dropped. */
const itemsOf = <S extends z.ZodType>(item: S) =>
  z
    .array(z.unknown())
    .transform((list) => list.flatMap((v) => {
      const r = item.safeParse(v);
      return r.success ? [r.data as z.output<S>] : [];
    }))
    .optional()
    .catch(undefined);

/** A base URL without user info, query or fragment, where credentials could sit; absent when not a URL. */
const baseUrl = z
  .string()
  .transform((s, ctx) => {
    try {
      const u = new URL(s);
      return `${u.protocol}//${u.host}${u.pathname}`;
    } catch {
      // Not a URL: nothing safe to show.
      ctx.addIssue({ code: 'custom', message: 'not a URL' });
      return z.NEVER;
    }
  })
  .optional()
  .catch(undefined);

/** A model choice: `"provider/model"` or `{ primary, fallbacks }`. */
const ModelChoice = z
  .union([z.string(), z.object({ primary: str, fallbacks: strings })])
  .optional()
  .catch(undefined);

const ConfiguredModel = z.object({
  id: z.string(),
  name: str,
  contextWindow: z.number().optional().catch(undefined),
  reasoning: bool,
});

const section = <S extends z.ZodRawShape>(shape: S) => z.object(shape).optional().catch(undefined);

export const GatewayConfigView = z.object({
  gateway: section({
    port: z.number().int().min(1).max(65535).optional().catch(undefined),
    bind: str,
    mode: str,
  }),
  agents: section({
    defaults: section({ model: ModelChoice }),
    // z.record builds a fresh object and skips a `__proto__` key.
    entries: z.record(z.string(), z.object({ model: ModelChoice }).catch({ model: undefined })).optional().catch(undefined),
    list: itemsOf(z.object({ id: z.string(), model: ModelChoice })),
  }),
  tools: section({
    exec: section({ ask: str, security: str }),
    agentToAgent: section({ enabled: bool }),
    sessions: section({ visibility: str }),
  }),
  models: section({
    providers: z
      .record(z.string(), z.object({ api: str, baseUrl, models: itemsOf(ConfiguredModel) }).catch({ api: undefined, baseUrl: undefined, models: undefined }))
      .optional()
      .catch(undefined),
  }),
});
export type GatewayConfigView = z.output<typeof GatewayConfigView>;

/** The allowlisted projection of a parsed `openclaw.json`; null when there is none. */
export function gatewayConfigView(config: Record<string, unknown> | null): GatewayConfigView | null {
  if (config === null) return null;
  const view = GatewayConfigView.safeParse(config);
  return view.success ? view.data : {};
}
