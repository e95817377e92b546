// Spec "Settings file": the resolved settings are cached briefly (GET
// /api/settings is on the dashboard's hot path); a hand edit of the gateway's
// files shows once the cache has aged, a save shows at once. On an injected
// clock (issue 16 #5), so no test waits out the cache on the wall clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../../shared/log.ts';
import { CACHE_MS, createSettingsService } from '../../supervisor/services/settings-service.ts';
import { removeHome, tempHome } from '../helpers/server.ts';

void test('Settings file: a hand edit of the gateway files shows once the cache has aged; a save shows at once', (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  let now = 1_000_000;
  const settings = createSettingsService({
    settingsFile: join(home, 'settings.json'),
    gatewayStateDir: home,
    logger: createLogger({ level: 'silent' }),
    now: () => now,
  });
  assert.deepEqual(settings.view(), { gatewayUrl: 'ws://localhost:18789', hasToken: false, firstRunDismissedAt: null });

  writeFileSync(join(home, 'openclaw.json'), '{ "gateway": { "port": 19555, "auth": { "token": "${GW_TOK}" } } }');
  writeFileSync(join(home, '.env'), 'GW_TOK=from-env-file-123\n');
  now += CACHE_MS - 1;
  assert.equal(settings.view().hasToken, false, 'still the cached read, 1 ms before it ages');
  now += 1;
  assert.deepEqual(settings.view(), { gatewayUrl: 'ws://localhost:19555', hasToken: true, firstRunDismissedAt: null }, 'read again once CACHE_MS has passed');
  assert.equal(settings.resolved().token, 'from-env-file-123');

  settings.save({ firstRunDismissedAt: 42 });
  assert.equal(settings.view().firstRunDismissedAt, 42, 'a save drops the cache at once, without the clock moving');
});
