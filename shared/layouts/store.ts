// The graph_layouts table: one JSON layout per (name, gateway_url), upserted.
import type { Db } from '../db/open.ts';
import type { Logger } from '../log.ts';
import { StoredLayout, type GraphLayout, type LayoutPostBody } from './schemas.ts';

export interface LayoutStore {
  /** The stored layout; null on a miss or when the stored JSON is unreadable (logged). */
  get(gatewayUrl: string, name: string): GraphLayout | null;
  put(input: LayoutPostBody): GraphLayout;
}

export function createLayoutStore(db: Db, logger: Logger, now: () => number = Date.now): LayoutStore {
  const getStmt = db.prepare('SELECT layout, updated_at AS updatedAt FROM graph_layouts WHERE name = ? AND gateway_url = ?');
  const upsertStmt = db.prepare(
    `INSERT INTO graph_layouts (name, gateway_url, layout, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (name, gateway_url) DO UPDATE SET layout = excluded.layout, updated_at = excluded.updated_at`,
  );
  return {
    get(gatewayUrl, name) {
      const row = getStmt.get(name, gatewayUrl) as { layout: string; updatedAt: number } | undefined;
      if (!row) return null;
      let raw: unknown;
      try {
        raw = JSON.parse(row.layout);
      } catch (err) {
        logger.warn({ err, name, gatewayUrl }, 'graph layout unreadable; served as empty');
        return null;
      }
      const r = StoredLayout.safeParse(raw);
      if (!r.success) {
        logger.warn({ name, gatewayUrl }, 'graph layout malformed; served as empty');
        return null;
      }
      return { name, gatewayUrl, ...r.data, updatedAt: row.updatedAt };
    },
    put({ gatewayUrl, name, positions, viewport }) {
      const layout: StoredLayout = viewport ? { positions, viewport } : { positions };
      const t = now();
      upsertStmt.run(name, gatewayUrl, JSON.stringify(layout), t);
      return { name, gatewayUrl, ...layout, updatedAt: t };
    },
  };
}
