// The `settings` key/value table (team-scoped entries, lead-agent keys, ...).
// A value read is kept until the settings stamp moves (migration 17), so a
// hot path that reads the same entries on every request reads one small row.
import { messageOf } from '../errors.ts';
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
  // Values read since the settings stamp (migration 17) last moved. Never
  // inside a transaction: a value read there may be rolled back, and the
  // stamp with it, to a number a later commit reaches with other values.
  const stampStmt = db.prepare('SELECT n FROM settings_stamp WHERE id = 1').pluck();
  const known = new Map<string, string | null>();
  let knownAt: number | null = null;
  const read = (key: string): string | null => (getStmt.get(key) as string | undefined) ?? null;
  const get = (key: string): string | null => {
    if (db.inTransaction) {
      knownAt = null;
      return read(key);
    }
    const stamp = stampStmt.get() as number;
    if (stamp !== knownAt) {
      known.clear();
      knownAt = stamp;
    }
    let value = known.get(key);
    if (value === undefined) {
      value = read(key);
      known.set(key, value);
    }
    return value;
  };
  const entryStmt = db.prepare('SELECT value, updated_at AS updatedAt FROM settings WHERE key = ?');
  const setStmt = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const delStmt = db.prepare('DELETE FROM settings WHERE key = ?');
  return {
    get,
    getEntry: (key) => (entryStmt.get(key) as SettingEntry | undefined) ?? null,
    set(key, value) {
      const t = now();
      setStmt.run(key, value, t);
      return t;
    },
    delete: (key) => void delStmt.run(key),
  };
}

/**
 * A JSON setting read through its schema: `fallback()` when it is absent,
 * and (with a warning naming the key) when it is not JSON or does not match.
 * `what` says what the fallback means, for the person reading the log.
 */
export function readJsonSetting<T>(
  settings: Pick<SettingsTable, 'get'>,
  key: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  fallback: () => T,
  log: { warn(obj: object, msg: string): void },
  what: { name: string; fallback: string },
): T {
  const text = settings.get(key);
  if (text === null) return fallback();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    log.warn({ key, err: messageOf(err) }, `${what.name} is not JSON; ${what.fallback}`);
    return fallback();
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  log.warn({ key }, `${what.name} does not match its schema; ${what.fallback}`);
  return fallback();
}
