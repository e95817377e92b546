// Governance → model prices set in svc (issue 31 item 1): GET the object
// `{ "<provider>/<model>" | "<model>": { input, output, cacheRead?,
// cacheWrite? } }` (USD per million tokens), PUT to replace it whole. A price
// set here comes first in the price order (shared/pricing/price-table.ts);
// bad input is a 400 with `details` and changes nothing.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseSvcPricesBody, readSvcPrices, SVC_PRICES_MESSAGES as M, writeSvcPrices } from '../../../shared/pricing/index.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../http-error.ts';

export function modelPricesRoutes(app: FastifyInstance, { settingsTable }: AppDeps): void {
  app.get('/api/governance/model-prices', async () => readSvcPrices(settingsTable));

  app.put('/api/governance/model-prices', { config: { badJsonMessage: M.invalid } }, async (req) => {
    const parsed = parseSvcPricesBody(req.body ?? {});
    if (!parsed.ok) throw badRequest(M.invalid, { details: z.flattenError(parsed.error) });
    writeSvcPrices(settingsTable, parsed.entries);
    return readSvcPrices(settingsTable);
  });
}
