// Migration 17 (issue 31): a stamp that every write to the settings table
// moves, whoever writes it (any connection, thread or process, by any SQL).
// A reader on a hot path (the model endpoint reads the routing registry,
// the prices and a team's runaway limits on every call) keeps the values it
// read and reads them again only when the stamp moved: one row of one page,
// where the registry's row spans several.
import type { Migration } from '../migration.ts';

export const migration0017: Migration = {
  version: 17,
  name: 'settings stamp',
  sql: `
    CREATE TABLE settings_stamp (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      n INTEGER NOT NULL
    );
    INSERT INTO settings_stamp (id, n) VALUES (1, 0);
    CREATE TRIGGER settings_stamp_insert AFTER INSERT ON settings
    BEGIN UPDATE settings_stamp SET n = n + 1 WHERE id = 1; END;
    CREATE TRIGGER settings_stamp_update AFTER UPDATE ON settings
    BEGIN UPDATE settings_stamp SET n = n + 1 WHERE id = 1; END;
    CREATE TRIGGER settings_stamp_delete AFTER DELETE ON settings
    BEGIN UPDATE settings_stamp SET n = n + 1 WHERE id = 1; END;
  `,
};
