// Issue 32: each setting is declared once (shared/config-settings.ts) and the
// rest is read off the declarations: EnvSchema, svc's secret names, the boot
// report's config and resolved fields. Spec "Boot report": the field names
// served stay the spec's; svc's secrets never reach the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EnvSchema, loadConfig, SETTING_ENTRIES, SVC_SECRET_ENV_NAMES } from '../../shared/config.ts';
import { envNamesOf } from '../../shared/config-setting.ts';
import { reportedSettings } from '../../shared/health/report.ts';
import { buildTestApp } from '../helpers/app.ts';

/** A value for each of svc's secret variables, each one distinctive enough to search a reply for. */
const SECRETS: Record<string, string> = {
  STUDIO_ACCESS_TOKEN: 'access-tok-9f3a7c',
  SVC_SECRETS_MASTER_KEY: 'ab'.repeat(32),
  SVC_SEARCH_API_KEY: 'search-key-5d1e2b',
  SVC_EMBEDDINGS_API_KEY: 'embed-key-7c4f0a',
  OTEL_EXPORTER_OTLP_HEADERS: 'authorization=otlp-hdr-2b8e91',
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=otlp-trace-hdr-6a0d33',
};

void test('Configuration (issue 32): the secret names are the entries marked secret, and none has a report field', () => {
  const secretEntries = SETTING_ENTRIES.filter(([, s]) => s.secret);
  assert.deepEqual([...SVC_SECRET_ENV_NAMES].sort(), secretEntries.flatMap(([, s]) => envNamesOf(s)).sort());
  assert.deepEqual([...SVC_SECRET_ENV_NAMES].sort(), Object.keys(SECRETS).sort(), 'the six secrets of docs/configuration.md');
  for (const [key, s] of secretEntries) assert.equal(s.report, undefined, `${key} is a secret and names no boot report field`);
});

void test('Configuration (issue 32): each variable is read by its entries with one parser, and documented by at most one', () => {
  const documented = new Map<string, string>();
  for (const [key, s] of SETTING_ENTRIES) {
    for (const name of envNamesOf(s)) {
      assert.equal(EnvSchema.shape[name], s.schema, `${name}: EnvSchema parses it with ${key}'s schema`);
      if (s.doc === undefined) continue;
      assert.ok(!documented.has(name), `${name} is documented by ${documented.get(name)} and ${key}`);
      documented.set(name, key);
    }
  }
  assert.deepEqual([...documented.keys()].sort(), Object.keys(EnvSchema.shape).sort(), 'every variable read has a documented entry');
});

void test('Boot report (issue 32): the reported settings keep the spec field names and come from the config', () => {
  const config = loadConfig({ SVC_HOME: '/tmp/svc-h', LOG_LEVEL: 'warn', SVC_BUDGET_HARD_CAP_USD_CENTS: '2500', SVC_BUDGET_WARN_PCT: '70', GATEWAY_STATE_DIR: '/tmp/gw' });
  assert.deepEqual(reportedSettings(config, 'config'), { logLevel: 'warn', budgetHardCapUsdCents: 2500, budgetWarnSoftPct: 70 });
  assert.deepEqual(reportedSettings(config, 'resolved'), { svcHome: '/tmp/svc-h', dbPath: '/tmp/svc-h/svc.db', stateDir: '/tmp/gw' });
});

void test('Boot report (issue 32): with every secret set, GET /api/health shows none of them', async (t) => {
  const { app, config } = await buildTestApp(t, { env: SECRETS });
  assert.equal(config.accessToken, SECRETS.STUDIO_ACCESS_TOKEN, 'the secrets were read');
  const res = await app.inject({ url: '/api/health', headers: { authorization: `Bearer ${SECRETS.STUDIO_ACCESS_TOKEN}` } });
  assert.equal(res.statusCode, 200);
  const body = res.json<{ config: Record<string, unknown> }>();
  assert.deepEqual(Object.keys(body.config).sort(), ['budgetHardCapUsdCents', 'budgetPosture', 'budgetWarnSoftPct', 'logLevel', 'otelActive', 'otelEnabledByDefault']);
  const values = Object.values(SECRETS).flatMap((v) => [v, v.replace(/^authorization=/, '')]);
  for (const v of values) assert.ok(!res.body.includes(v), `the report carries a secret (${v.slice(0, 6)}…)`);
});
