// GET /api/system/models (shape not in the spec): the gateway's own
// `models.list` when svc is connected, else the models configured in
// openclaw.json (`available: null`: nobody asked the gateway). The default
// model is `agents.defaults.model.primary` (or its string form) either way.
import { z } from 'zod';
import type { Logger } from '../log.ts';
import { readGatewayConfig } from '../settings/gateway-files.ts';

// models.list as OpenClaw 2026.9 answers it; unknown fields pass, wrong-typed optional ones read as null.
const GatewayModels = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      name: z.string().optional().catch(undefined),
      contextWindow: z.number().optional().catch(undefined),
      reasoning: z.boolean().optional().catch(undefined),
      available: z.boolean().optional().catch(undefined),
    }),
  ),
});
const ConfigModels = z.object({
  models: z.object({
    providers: z.record(z.string(), z.object({
      models: z.array(z.object({
        id: z.string(),
        name: z.string().optional().catch(undefined),
        contextWindow: z.number().optional().catch(undefined),
        reasoning: z.boolean().optional().catch(undefined),
      })).catch([]),
    }).catch({ models: [] })).catch({}),
  }).catch({ providers: {} }),
  agents: z.object({
    defaults: z.object({ model: z.union([z.string(), z.object({ primary: z.string() })]).optional().catch(undefined) }).catch({}),
  }).catch({ defaults: {} }),
}).catch({ models: { providers: {} }, agents: { defaults: {} } });

export interface ModelEntry {
  ref: string;
  id: string;
  name: string;
  provider: string;
  contextWindow: number | null;
  reasoning: boolean | null;
  available: boolean | null;
}

const entry = (m: { id: string; provider: string; name?: string; contextWindow?: number; reasoning?: boolean; available?: boolean }): ModelEntry => ({
  ref: `${m.provider}/${m.id}`,
  id: m.id,
  name: m.name ?? m.id,
  provider: m.provider,
  contextWindow: m.contextWindow ?? null,
  reasoning: m.reasoning ?? null,
  available: m.available ?? null,
});

export interface ModelList {
  source: 'gateway' | 'config';
  defaultModel: string | null;
  models: ModelEntry[];
}

export async function listModels(
  stateDir: string,
  call: (method: string, params: unknown) => Promise<unknown>,
  logger: Logger,
): Promise<ModelList> {
  const parsedConfig = ConfigModels.parse(readGatewayConfig(stateDir).config ?? {});
  const model = parsedConfig.agents.defaults.model;
  const defaultModel = typeof model === 'string' ? model : (model?.primary ?? null);
  try {
    const live = GatewayModels.safeParse(await call('models.list', {}));
    if (live.success) return { source: 'gateway', defaultModel, models: live.data.models.map(entry) };
    logger.warn('models.list answered in an unexpected shape; using the config file');
  } catch (err) {
    // Not connected (or the gateway refused): the configured models are the next best answer.
    logger.debug({ err }, 'models.list unavailable; using the config file');
  }
  const models = Object.entries(parsedConfig.models.providers).flatMap(([provider, p]) => p.models.map((m) => entry({ ...m, provider })));
  return { source: 'config', defaultModel, models };
}
