// One numbered schema migration (shared/db/migrations/NNNN-*.ts). Its own
// file so the migration files and the list that applies them
// (shared/db/migrations.ts) import this type, not each other.
export interface Migration {
  /** The PRAGMA user_version the database has once this migration ran. */
  version: number;
  name: string;
  /**
   * Run as one script. SQLite keeps the text of each CREATE statement in
   * sqlite_master verbatim, indentation included, so the text of a shipped
   * migration is never re-indented.
   */
  sql: string;
}
