// Spec "Smaller resources" → "Marketplace catalog". File-backed, no database:
// the catalog service (shared/catalog) merges the built-in pack, the local
// folder and the remote index; field names are in README "Marketplace catalog".
import type { FastifyInstance } from 'fastify';
import { createCatalog } from '../../../shared/catalog/index.ts';
import type { AppDeps } from '../../deps.ts';

export function catalogRoutes(app: FastifyInstance, { config, logger, redactor }: AppDeps): void {
  const catalog = createCatalog({ config, logger });

  app.get('/api/catalog/index', async () => {
    const view = await catalog.view();
    // Source errors quote what a remote sent back: masked like any other error text.
    return { ...view, sources: redactor.deep(view.sources) };
  });

  app.get<{ Params: { id: string } }>('/api/catalog/agents/:id', async (req) => catalog.agent(req.params.id));

  app.get<{ Params: { id: string } }>('/api/catalog/teams/:id', async (req) => catalog.team(req.params.id));
}
