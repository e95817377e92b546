// The boot probe's checks, in the spec's run order. Fatal checks: the state
// directory is writable, the database passes integrity_check, the schema has
// every declared table and column. Everything else only degrades. A check
// whose subject does not exist yet runs as far as it can and says what it
// skipped (detail.skipped), never a hard-coded ok.
import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/open.ts';
import { declaredSchema, listTables } from '../db/migrations.ts';
import type { SvcPaths } from '../paths.ts';
import { cleartextRemoteWs, httpReachable, tcpReachable, wsHostPort } from './probes.ts';
import type { McpProbe, VaultHealth } from './types.ts';
import type { ConnectionStatus } from '../gateway/connection.ts';
import { messageOf } from '../errors.ts';

export interface CheckOutcome {
  ok: boolean;
  message: string;
  detail?: Record<string, unknown>;
}

export interface CheckDeps {
  paths: SvcPaths;
  db: Db;
  vault: VaultHealth;
  /** PRAGMA integrity_check, run off the main thread (pool). */
  integrityCheck: () => Promise<string[]>;
  gatewayUrl: () => string | null;
  /** The gateway link's status, once no connect is in progress; null when there is none. */
  gatewayLink: () => Promise<ConnectionStatus | null>;
  apiPort: number | null;
  mcpProbes: () => McpProbe[];
  otlpEndpoint: string | null;
  /** Issue 22: with model routing applied, the names (never values) of real provider keys left in the gateway's files. */
  modelKeys?: () => { active: boolean; names: string[] };
  /** Issue 30: what the gateway reconciler could not wire into the gateway (names and reasons, never values). */
  gatewayWiring?: () => { active: boolean; problems: string[] };
}

export interface CheckDef {
  id: string;
  fatal: boolean;
  /** A check that does not apply to this configuration is left out of the report. */
  applies?: (deps: CheckDeps) => boolean;
  run: (deps: CheckDeps) => CheckOutcome | Promise<CheckOutcome>;
}

const skipped = (message: string, extra: Record<string, unknown> = {}): CheckOutcome => ({
  ok: true,
  message,
  detail: { skipped: true, ...extra },
});

export const CHECKS: readonly CheckDef[] = [
  {
    id: 'svcHomeWritable',
    fatal: true,
    run: ({ paths }) => {
      mkdirSync(paths.home, { recursive: true, mode: 0o700 });
      accessSync(paths.home, constants.W_OK);
      const probe = join(paths.home, `.write-probe-${process.pid}`);
      writeFileSync(probe, 'ok');
      rmSync(probe);
      return { ok: true, message: `state directory ${paths.home} is writable` };
    },
  },
  {
    id: 'vaultPerms',
    fatal: false,
    run: ({ vault, paths }) => {
      const r = vault.checkVaultPerms([paths.deviceIdentityFile]);
      if (r.skipped) return skipped(r.reason ?? 'skipped');
      return r.problems.length === 0
        ? { ok: true, message: 'secrets directory 0700, key files 0600' }
        : { ok: false, message: `insecure permissions: ${r.problems.join('; ')}`, detail: { problems: r.problems } };
    },
  },
  {
    id: 'masterKeyBootSentinel',
    fatal: false,
    run: ({ vault }) => {
      if (!vault.vaultPresent()) return skipped('no vault yet (nothing stored); sentinel written on first use');
      if (!vault.masterKeyOk()) return { ok: false, message: 'master key cannot be loaded' };
      const s = vault.checkBootSentinel();
      if (s.state === 'absent') {
        vault.ensureBootSentinel();
        return { ok: true, message: 'boot sentinel written' };
      }
      return s.state === 'ok'
        ? { ok: true, message: 'boot sentinel decrypts with the current master key' }
        : { ok: false, message: 'boot sentinel does not decrypt: the master key changed; stored secrets are unreadable' };
    },
  },
  {
    id: 'databaseIntegrity',
    fatal: true,
    run: async ({ integrityCheck }) => {
      const rows = await integrityCheck();
      return rows.length === 1 && rows[0] === 'ok'
        ? { ok: true, message: 'integrity_check ok' }
        : { ok: false, message: 'integrity_check failed', detail: { problems: rows.slice(0, 20) } };
    },
  },
  {
    id: 'databaseSchema',
    fatal: true,
    run: ({ db }) => {
      const actual = new Map(listTables(db).map((t) => [t.name, new Set(t.columns)]));
      const missing: string[] = [];
      for (const t of declaredSchema()) {
        const cols = actual.get(t.name);
        if (!cols) missing.push(`table ${t.name}`);
        else for (const c of t.columns) if (!cols.has(c)) missing.push(`${t.name}.${c}`);
      }
      return missing.length === 0
        ? { ok: true, message: `schema complete (user_version ${db.pragma('user_version', { simple: true }) as number})` }
        : { ok: false, message: `schema incomplete: ${missing.join(', ')}`, detail: { missing } };
    },
  },
  {
    id: 'apiPortFileMatches',
    fatal: false,
    run: ({ apiPort, paths }) => {
      if (apiPort === null) return skipped('no API port bound yet');
      let text: string;
      try {
        text = readFileSync(paths.apiPortFile, 'utf8').trim();
      } catch (err) {
        return { ok: false, message: `cannot read ${paths.apiPortFile}: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
      }
      return text === String(apiPort)
        ? { ok: true, message: `api-port.txt holds ${apiPort}` }
        : { ok: false, message: `api-port.txt holds ${text || '(empty)'}, bound port is ${apiPort}` };
    },
  },
  {
    id: 'mcpServersHealthy',
    fatal: false,
    run: async ({ mcpProbes }) => {
      const probes = mcpProbes();
      if (probes.length === 0) return skipped('no in-process MCP servers are registered in this build');
      const results = await Promise.all(
        probes.map(async (p) => {
          try {
            return { name: p.name, ok: true, tools: (await p.listTools()).length };
          } catch (err) {
            return { name: p.name, ok: false, error: messageOf(err) };
          }
        }),
      );
      const failed = results.filter((r) => !r.ok).map((r) => r.name);
      return failed.length === 0
        ? { ok: true, message: `${results.length} MCP servers answer tools/list`, detail: { servers: results } }
        : { ok: false, message: `MCP servers not answering: ${failed.join(', ')}`, detail: { servers: results } };
    },
  },
  {
    id: 'gatewayReachable',
    fatal: false,
    run: async ({ gatewayUrl, gatewayLink }) => {
      const url = gatewayUrl();
      if (!url) return skipped('no gatewayUrl configured');
      const hp = wsHostPort(url);
      if (!hp) return { ok: false, message: 'gatewayUrl is not a ws:// or wss:// URL' };
      // Reachable means the gateway link completed the protocol handshake;
      // an open port alone may be anything (or a gateway refusing svc).
      const conn = await gatewayLink();
      if (conn?.state === 'connected') {
        return { ok: true, message: `gateway connected at ${url}`, detail: { url, connection: 'connected', serverVersion: conn.serverVersion } };
      }
      const r = await tcpReachable(hp.host, hp.port);
      const detail = { url, tcp: r.ok, connection: conn?.state ?? 'none', lastError: conn?.lastError ?? null };
      if (!r.ok) return { ok: false, message: `gateway not reachable at ${hp.host}:${hp.port} (${r.error})`, detail };
      const why = conn?.lastError ? `${conn.lastError.code}: ${conn.lastError.message}` : `svc's gateway link is ${conn?.state ?? 'not running'}`;
      return { ok: false, message: `gateway port ${hp.port} answers but the handshake did not complete (${why})`, detail };
    },
  },
  {
    // Beyond the spec's list (issue 15 #4): present only when the gateway URL
    // is ws:// to a host that is not loopback, where the gateway token would
    // cross the network in clear in every connect frame.
    id: 'gatewayTransport',
    fatal: false,
    applies: ({ gatewayUrl }) => cleartextRemoteWs(gatewayUrl() ?? '') !== null,
    run: ({ gatewayUrl }) => {
      const hp = cleartextRemoteWs(gatewayUrl() ?? '');
      if (!hp) return { ok: true, message: 'the gateway connection is wss:// or stays on this machine' };
      return {
        ok: false,
        message: `the gateway URL is ws:// to ${hp.host}:${hp.port}, which is not loopback: the gateway token crosses the network unencrypted. Use wss:// or a loopback address`,
        detail: { scheme: 'ws', host: hp.host, port: hp.port },
      };
    },
  },
  {
    // Issue 22: with routing on, real provider keys live in svc's vault only.
    id: 'model-keys',
    fatal: false,
    applies: ({ modelKeys }) => modelKeys?.().active === true,
    run: ({ modelKeys }) => {
      const names = modelKeys?.().names ?? [];
      if (names.length === 0) return { ok: true, message: "model calls go through svc; the gateway's files hold no provider key" };
      return {
        ok: false,
        message: `the gateway's files still hold provider keys (${names.join(', ')}): with model routing on they belong in svc's vault only; run a model-routing sync or remove them`,
        detail: { names },
      };
    },
  },
  {
    // Issue 30: svc's own wiring of the gateway (rosters, MCP attach, routing); degraded, the chat works without it.
    id: 'gatewayWiring',
    fatal: false,
    applies: ({ gatewayWiring }) => gatewayWiring?.().active === true,
    run: ({ gatewayWiring }) => {
      const problems = gatewayWiring?.().problems ?? [];
      if (problems.length === 0) return { ok: true, message: 'the gateway holds what svc wires into it: rosters, its MCP servers per agent, model routing' };
      return { ok: false, message: `svc could not wire everything into the gateway: ${problems.join('; ')}`, detail: { problems } };
    },
  },
  {
    id: 'otelExporterReachable',
    fatal: false,
    applies: ({ otlpEndpoint }) => otlpEndpoint !== null,
    run: async ({ otlpEndpoint }) => {
      const r = await httpReachable(otlpEndpoint as string);
      return r.ok
        ? { ok: true, message: `OTLP collector answered (HTTP ${r.status})` }
        : { ok: false, message: `OTLP collector not reachable (${r.error})` };
    },
  },
];
