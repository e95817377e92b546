// Settings a test gives svc before it starts, written into the settings
// table of the database svc will open (its SVC_HOME's svc.db), as the
// dashboard would have saved them in an earlier run.
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { ENABLED_KEY } from '../../shared/model-routing/status.ts';

export function seedSettings(home: string, values: Readonly<Record<string, string>>): void {
  const db = openDatabase(join(home, 'svc.db'));
  try {
    const settings = createSettingsTable(db);
    for (const [key, value] of Object.entries(values)) settings.set(key, value);
  } finally {
    db.close();
  }
}

/**
 * Model routing off from svc's first connect: for a file that proves what the
 * gateway does on its own model path (each run's cost recorded at its end,
 * the config routes' model refs as written). Routing rewrites every agent's
 * model ref once svc wires itself in; test/gateway/model-routing/ proves that.
 */
export const routingOffFromTheStart = (home: string): void => seedSettings(home, { [ENABLED_KEY]: 'false' });
