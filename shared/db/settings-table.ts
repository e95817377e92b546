// The `settings` key/value table (team-scoped entries, lead-agent keys, ...).
import type { Db } from './open.ts';

export interface SettingEntry {
  value: string;
  updatedAt: number;
}

export interface SettingsTable {
  get(key: string): string | null;
  getEntry(key: string): SettingEntry | null;
  /** Upserts; returns the updatedAt written. */
  set(key: string, value: string): number;
  delete(key: string): void;
}

export function createSettingsTable(db: Db, now: () => number = Date.now): SettingsTable {
  const getStmt = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const entryStmt = db.prepare('SELECT value, updated_at AS updatedAt FROM settings WHERE key = ?');
  const setStmt = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const delStmt = db.prepare('DELETE FROM settings WHERE key = ?');
  return {
    get: (key) => (getStmt.get(key) as string | undefined) ?? null,
    getEntry: (key) => (entryStmt.get(key) as SettingEntry | undefined) ?? null,
    set(key, value) {
      const t = now();
      setStmt.run(key, value, t);
      return t;
    },
    delete: (key) => void delStmt.run(key),
  };
}
