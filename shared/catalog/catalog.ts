// The marketplace catalog (spec "Smaller resources" → "Marketplace catalog"):
// the built-in pack, then the local folder, then the remote index, merged
// (merge.ts) and cached per source (cache.ts). It never fails closed: every
// source problem is caught in load-source.ts and reported, so the built-in
// pack is served whatever happens to the others. No database is involved.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { notFound } from '../errors.ts';
import type { Logger } from '../log.ts';
import { timedCache, type TimedCache } from './cache.ts';
import { folderSource, hasIndex } from './local-source.ts';
import { loadSource } from './load-source.ts';
import { mergeSources } from './merge.ts';
import type { FetchLike } from './read-capped.ts';
import { remoteSource } from './remote-source.ts';
import type { AgentDetail, AgentRow, CatalogSnapshot, CatalogView, SourceResult, TeamDetail } from './types.ts';

export const CATALOG_MESSAGES = {
  agentNotFound: 'catalog agent not found',
  teamNotFound: 'catalog team not found',
} as const;

export const CATALOG_TTL = {
  /** The built-in pack is part of the installed package: read once per process. */
  builtin: { okTtlMs: Number.POSITIVE_INFINITY, failTtlMs: 60_000 },
  /** Short, so packs dropped into the folder show up without a restart. */
  local: { okTtlMs: 15_000, failTtlMs: 15_000 },
  remote: { okTtlMs: 5 * 60_000, failTtlMs: 30_000 },
} as const;

export interface CatalogOptions {
  config: Pick<Config, 'packageRoot' | 'catalogDir' | 'catalogIndexUrl'>;
  logger: Logger;
  fetch?: FetchLike;
  timeoutMs?: number;
  now?: () => number;
}

export interface Catalog {
  view(): Promise<CatalogView>;
  /** Throws a not_found DomainError for an unknown id. */
  agent(id: string): Promise<{ agent: AgentDetail }>;
  team(id: string): Promise<{ team: TeamDetail; members: AgentRow[] }>;
}

export const builtinDir = (packageRoot: string) => join(packageRoot, 'catalog', 'builtin');

export function createCatalog(opts: CatalogOptions): Catalog {
  const now = opts.now ?? Date.now;
  const { config, logger } = opts;
  const cached = (ttl: { okTtlMs: number; failTtlMs: number }, load: () => Promise<SourceResult | null>) =>
    timedCache(load, { ...ttl, now, failed: (r) => r !== null && !r.status.ok });

  const sources: TimedCache<SourceResult | null>[] = [
    cached(CATALOG_TTL.builtin, () => loadSource(folderSource('builtin', builtinDir(config.packageRoot), 'builtin'), logger, now())),
    // A missing folder or index is simply no local source, and not reported.
    cached(CATALOG_TTL.local, async () =>
      (await hasIndex(config.catalogDir)) ? loadSource(folderSource('local', config.catalogDir), logger, now()) : null,
    ),
  ];
  const indexUrl = config.catalogIndexUrl;
  if (indexUrl !== null) {
    const reader = remoteSource(indexUrl, { fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    sources.push(cached(CATALOG_TTL.remote, () => loadSource(reader, logger, now())));
  }

  // Rebuilt only when some source's result object changed (a fresh read).
  let last: { inputs: (SourceResult | null)[]; snapshot: CatalogSnapshot } | null = null;
  const snapshot = async (): Promise<CatalogSnapshot> => {
    const inputs = await Promise.all(sources.map((s) => s.get()));
    if (last && inputs.every((r, i) => r === last?.inputs[i])) return last.snapshot;
    last = { inputs, snapshot: mergeSources(inputs.filter((r): r is SourceResult => r !== null)) };
    return last.snapshot;
  };

  return {
    async view() {
      const { packs, agents, teams, sources: statuses } = await snapshot();
      return { packs, agents, teams, sources: statuses };
    },
    async agent(id) {
      const hit = (await snapshot()).agentById.get(id);
      if (!hit) throw notFound(CATALOG_MESSAGES.agentNotFound);
      return { agent: { ...hit.row, documents: { ...hit.template.documents } } };
    },
    async team(id) {
      const snap = await snapshot();
      const hit = snap.teamById.get(id);
      if (!hit) throw notFound(CATALOG_MESSAGES.teamNotFound);
      // The merge only serves teams whose members all come from their own pack.
      const members = hit.template.members.flatMap((m) => snap.agentById.get(m)?.row ?? []);
      return { team: { ...hit.row, rules: hit.template.rules, brief: hit.template.brief }, members };
    },
  };
}
