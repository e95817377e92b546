// The memory store: saves, full-text (and, with an embedding provider,
// hybrid) search, newest-first browsing, and the team digest the activity
// summary reads. Whether search is hybrid is decided once, here, from the
// configuration. A save is one IMMEDIATE transaction (the row, its FTS entry
// through the trigger, its vector when there is one), so several processes
// writing the same WAL database each wait their turn (busy_timeout) and none
// loses a save. The embedding is fetched before that transaction, never
// inside it, and a provider failure costs only the vector.
import type { Config } from '../config.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { uuidv7 } from '../ids.ts';
import type { Logger } from '../log.ts';
import { createEmbedder, vectorToBlob, type Embedder } from './embeddings.ts';
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from './rows.ts';
import { MemoryInputSchema, type MemoryInput } from './schemas.ts';
import { scopeSql } from './scope.ts';
import { createSearcher, DEFAULT_MIN_SIMILARITY } from './search.ts';
import { teamDigest, DIGEST_ITEMS } from './team-digest.ts';
import { MEMORY_LIMITS, type BrowsePage, type Memory, type MemoryScope, type SearchHit, type SearchMode } from './types.ts';
import { messageOf } from '../errors.ts';

export interface MemoryStore {
  /** 'hybrid' when an embedding provider was configured at creation, else 'fts'. */
  readonly mode: SearchMode;
  /** Saves one memory tagged with `scope`. Rejects only on invalid input or a database failure. */
  save(input: MemoryInput, scope: MemoryScope): Promise<Memory>;
  /** Best matches first; an empty or unparseable query finds nothing. Never rejects on query text. */
  search(query: string, scope: MemoryScope, limit?: number): Promise<SearchHit[]>;
  /** Full-text only, synchronously. */
  searchText(query: string, scope: MemoryScope, limit?: number): SearchHit[];
  /** Newest first, strictly older than `before` (a seq from a previous page). */
  browse(scope: MemoryScope, opts?: { before?: number; limit?: number }): BrowsePage;
  /** The activity summary's memory section for a team (TeamMemorySource). */
  forTeam(teamId: string): string | null;
}

export interface MemoryStoreDeps {
  db: Db;
  tx: Tx;
  logger: Logger;
  /** Read for embeddingsUrl, embeddingsModel and embeddingsApiKey. */
  config?: Pick<Config, 'embeddingsUrl' | 'embeddingsModel' | 'embeddingsApiKey'>;
  /** Overrides the provider built from config (null forces full-text only). */
  embedder?: Embedder | null;
  minSimilarity?: number;
  now?: () => number;
}

export const clampLimit = (n: number | undefined) =>
  Math.min(MEMORY_LIMITS.limitMax, Math.max(1, Number.isFinite(n) ? Math.trunc(n as number) : MEMORY_LIMITS.limitDefault));

export function createMemoryStore(deps: MemoryStoreDeps): MemoryStore {
  const { db, tx, logger, now = Date.now } = deps;
  const cfg = deps.config;
  const embedder: Embedder | null =
    deps.embedder !== undefined
      ? deps.embedder
      : cfg?.embeddingsUrl
        ? createEmbedder({ url: cfg.embeddingsUrl, model: cfg.embeddingsModel, apiKey: cfg.embeddingsApiKey })
        : null;
  const searcher = createSearcher(db, deps.minSimilarity ?? DEFAULT_MIN_SIMILARITY);

  const insert = db.prepare(`INSERT INTO memories (id, team_id, agent_id, tenant_id, kind, title, tags, content, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertVector = db.prepare('INSERT INTO memory_vectors (memory_seq, model, dims, vector) VALUES (?, ?, ?, ?)');
  const teamRows = db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m LEFT JOIN memory_vectors v ON v.memory_seq = m.seq
    WHERE m.team_id = ? ORDER BY m.seq DESC LIMIT ${DIGEST_ITEMS}`);
  const browseStmts = new Map<string, Statement>();

  const tryEmbed = async (text: string, what: string): Promise<Float32Array | null> => {
    if (!embedder) return null;
    try {
      return await embedder.embed(text);
    } catch (err) {
      // Safe to go on: the row is still saved and found by full-text search.
      // The reason names the status or the network failure, never the key.
      logger.warn({ reason: messageOf(err), model: embedder.model }, `memory: embeddings provider failed during ${what}; full-text only`);
      return null;
    }
  };

  const searchText = (query: string, scope: MemoryScope, limit?: number): SearchHit[] => {
    try {
      return searcher.fts(query.slice(0, MEMORY_LIMITS.queryMax), scope, clampLimit(limit));
    } catch (err) {
      // The query is sanitised, so this should not happen; a bad query must still find nothing, not fail.
      logger.warn({ reason: messageOf(err) }, 'memory: full-text query failed; no hits');
      return [];
    }
  };

  return {
    mode: embedder ? 'hybrid' : 'fts',

    async save(input, scope) {
      const valid = MemoryInputSchema.parse(input);
      const title = valid.title ?? '';
      const tags = [...new Set(valid.tags ?? [])];
      const vector = await tryEmbed(title ? `${title}\n\n${valid.content}` : valid.content, 'save');
      const at = now();
      const id = uuidv7(at);
      const row = [id, scope.teamId ?? null, scope.agentId ?? null, scope.tenantId ?? null, valid.kind ?? 'note', title, JSON.stringify(tags), valid.content, at, at];
      const seq = tx.run(() => {
        const s = Number(insert.run(...row).lastInsertRowid);
        if (vector && embedder) insertVector.run(s, embedder.model, vector.length, vectorToBlob(vector));
        return s;
      });
      return {
        id,
        seq,
        teamId: scope.teamId ?? null,
        agentId: scope.agentId ?? null,
        tenantId: scope.tenantId ?? null,
        kind: valid.kind ?? 'note',
        title,
        tags,
        content: valid.content,
        createdAt: at,
        updatedAt: at,
        embedded: vector !== null,
      };
    },

    async search(query, scope, limit) {
      const n = clampLimit(limit);
      const q = query.slice(0, MEMORY_LIMITS.queryMax);
      if (!embedder || q.trim() === '') return searchText(q, scope, n);
      const qv = await tryEmbed(q, 'search');
      if (!qv) return searchText(q, scope, n);
      try {
        return searcher.hybrid(q, qv, embedder.model, scope, n);
      } catch (err) {
        logger.warn({ reason: messageOf(err) }, 'memory: hybrid search failed; full-text only');
        return searchText(q, scope, n);
      }
    },

    searchText,

    browse(scope, opts = {}) {
      const limit = clampLimit(opts.limit);
      const where = scopeSql(scope);
      const before = opts.before !== undefined && Number.isSafeInteger(opts.before) ? opts.before : Number.MAX_SAFE_INTEGER;
      const sql = `SELECT ${MEMORY_COLUMNS} FROM memories m LEFT JOIN memory_vectors v ON v.memory_seq = m.seq
        WHERE m.seq < ? AND ${where.sql} ORDER BY m.seq DESC LIMIT ?`;
      let stmt = browseStmts.get(sql);
      if (!stmt) browseStmts.set(sql, (stmt = db.prepare(sql)));
      const rows = stmt.all(before, ...where.params, limit + 1) as MemoryRow[];
      const page = rows.slice(0, limit).map(toMemory);
      return { memories: page, nextCursor: rows.length > limit ? (page[page.length - 1]?.seq ?? null) : null };
    },

    forTeam(teamId) {
      return teamDigest((teamRows.all(teamId) as MemoryRow[]).map(toMemory));
    },
  };
}
