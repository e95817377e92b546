// The `settings` key/value table (team-scoped entries, lead-agent keys, ...).
import type { Db } from './open.ts';

export interface SettingsTable {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
}

export function createSettingsTable(db: Db, now: () => number = Date.now): SettingsTable {
  const getStmt = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const setStmt = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const delStmt = db.prepare('DELETE FROM settings WHERE key = ?');
  return {
    get: (key) => (getStmt.get(key) as string | undefined) ?? null,
    set: (key, value) => void setStmt.run(key, value, now()),
    delete: (key) => void delStmt.run(key),
  };
}
