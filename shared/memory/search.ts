// Full-text and hybrid search over one scope. FTS5 MATCH with the sanitised
// query (fts-query.ts), bm25-ranked with the title weighted over tags over
// content. Hybrid: the FTS candidates and the scope's stored vectors are
// blended, score = FTS_WEIGHT * (bm25 relative to the best hit) +
// VECTOR_WEIGHT * cosine, so rows that tie on text are ordered by meaning,
// and a row that shares no word with the query still comes back when its
// cosine reaches minSimilarity.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.ts';
import { blobToVector, cosine } from './embeddings.ts';
import { buildFtsQuery } from './fts-query.ts';
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from './rows.ts';
import { scopeSql } from './scope.ts';
import type { MemoryScope, SearchHit } from './types.ts';

export const FTS_WEIGHT = 0.5;
export const VECTOR_WEIGHT = 0.5;
export const DEFAULT_MIN_SIMILARITY = 0.35;
/** Vectors compared per hybrid query: the scope's newest. */
export const VECTOR_SCAN_MAX = 5_000;
/** FTS candidates per hybrid query, as a multiple of the limit (capped at 200). */
const CANDIDATE_FACTOR = 5;
const SNIPPET_FALLBACK = 200;

interface FtsRow extends MemoryRow {
  rank: number;
  snip: string;
}

interface VecRow extends MemoryRow {
  vector: Buffer;
}

export interface Searcher {
  fts(query: string, scope: MemoryScope, limit: number): SearchHit[];
  /** Blends FTS hits with cosine similarity to `queryVector` (vectors of `model` only). */
  hybrid(query: string, queryVector: Float32Array, model: string, scope: MemoryScope, limit: number): SearchHit[];
}

const clipSnippet = (s: string) => (s.length <= SNIPPET_FALLBACK ? s : `${s.slice(0, SNIPPET_FALLBACK - 1)}…`);

export function createSearcher(db: Db, minSimilarity = DEFAULT_MIN_SIMILARITY): Searcher {
  // One statement per scope shape (which keys are set): at most eight of each.
  const cache = new Map<string, Statement>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };

  const ftsRows = (match: string, scope: MemoryScope, limit: number): FtsRow[] => {
    const where = scopeSql(scope);
    return stmt(`SELECT ${MEMORY_COLUMNS}, bm25(memories_fts, 4.0, 1.0, 2.0) AS rank,
        snippet(memories_fts, 1, '[', ']', '…', 24) AS snip
      FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
      LEFT JOIN memory_vectors v ON v.memory_seq = m.seq
      WHERE memories_fts MATCH ? AND ${where.sql}
      ORDER BY rank, m.seq DESC LIMIT ?`).all(match, ...where.params, limit) as FtsRow[];
  };

  const fts = (query: string, scope: MemoryScope, limit: number): SearchHit[] => {
    const match = buildFtsQuery(query);
    if (match === null) return [];
    const rows = ftsRows(match, scope, limit);
    const best = rows[0]?.rank ?? 0;
    return rows.map((r) => ({
      memory: toMemory(r),
      snippet: r.snip || clipSnippet(r.content),
      score: best < 0 ? r.rank / best : 1,
      match: 'fts' as const,
    }));
  };

  const hybrid = (query: string, qv: Float32Array, model: string, scope: MemoryScope, limit: number): SearchHit[] => {
    const byId = new Map<number, { hit: SearchHit; text: number; sim: number }>();
    for (const h of fts(query, scope, Math.min(200, limit * CANDIDATE_FACTOR))) {
      byId.set(h.memory.seq, { hit: h, text: h.score, sim: 0 });
    }
    const where = scopeSql(scope);
    const vecRows = stmt(`SELECT ${MEMORY_COLUMNS}, v.vector
      FROM memory_vectors v JOIN memories m ON m.seq = v.memory_seq
      WHERE v.model = ? AND v.dims = ? AND ${where.sql}
      ORDER BY m.seq DESC LIMIT ${VECTOR_SCAN_MAX}`).all(model, qv.length, ...where.params) as VecRow[];
    for (const r of vecRows) {
      const sim = Math.max(0, cosine(qv, blobToVector(r.vector)));
      const seen = byId.get(r.seq);
      if (seen) {
        seen.sim = sim;
        seen.hit.match = 'both';
      } else if (sim >= minSimilarity) {
        byId.set(r.seq, { hit: { memory: toMemory(r), snippet: clipSnippet(r.content), score: 0, match: 'vector' }, text: 0, sim });
      }
    }
    const blended = [...byId.values()].map(({ hit, text, sim }) => ({ ...hit, score: FTS_WEIGHT * text + VECTOR_WEIGHT * sim }));
    blended.sort((a, b) => b.score - a.score || b.memory.seq - a.memory.seq);
    return blended.slice(0, limit);
  };

  return { fts, hybrid };
}
