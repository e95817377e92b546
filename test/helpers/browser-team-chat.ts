// Helpers for the team chat page's browser tests (issue 18, brief C): svc for
// the file (the real gateway's environment, the UI build under test), a team
// whose onboarding is done, a transcript seeded through POST /api/chat-history,
// what the page renders against what the server holds, and a loopback TCP
// proxy in front of svc that a test can cut and restore (a dropped connection
// for real: the browser's EventSource sees its stream end and its reconnects
// fail, while svc and the run go on).
import assert from 'node:assert/strict';
import { createServer, connect, type Socket } from 'node:net';
import type { Page } from 'playwright-core';
import type { TranscriptEntry } from '../../shared/team-chat/schemas.ts';
import { call, teamKey } from './team-chat-api.ts';

/** SVC_UI_DIST for svc when the tests run against another build (`node ui/build.mjs --outDir <dir>`). */
export function uiDistEnv(): Record<string, string> {
  const dist = process.env.SVC_TEST_UI_DIST;
  return dist ? { SVC_UI_DIST: dist } : {};
}

/** PATCH onboarding so the page opens on the chat, not the gate. */
export async function skipOnboarding(base: string, teamId: string): Promise<void> {
  const r = await call(base, 'PATCH', `/api/teams/${teamId}/onboarding`, { agentsIntroduced: true, userIntroduced: true });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

let seeded = 0;

/** A transcript entry as svc writes it, for POST /api/chat-history. */
export function seedEntry(teamId: string, agentId: string, text: string, role: 'user' | 'assistant' = 'assistant'): TranscriptEntry {
  seeded += 1;
  const at = 1_700_000_000_000 + seeded * 1000;
  return {
    entryId: `seed-${seeded}-${Math.random().toString(36).slice(2, 8)}`,
    role,
    kind: role === 'user' ? 'user' : 'message',
    text,
    sessionKey: teamKey(agentId, teamId),
    runId: role === 'user' ? null : `seed-run-${seeded}`,
    source: role === 'user' ? 'local-send' : 'team-chat',
    timestampMs: at,
    sequenceKey: at,
    confirmed: true,
    fingerprint: `seed:${seeded}`,
    teamId,
    agentId,
  };
}

/** Stores entries in order (one POST per entry, so row ids follow the list). */
export async function seedTranscript(base: string, entries: readonly TranscriptEntry[]): Promise<void> {
  for (const e of entries) {
    const r = await call(base, 'POST', '/api/chat-history', { sessionKey: e.sessionKey, entries: [e] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
}

/** Every entry the server holds for these session keys (GET /api/chat-history, all pages). */
export async function serverEntries(base: string, sessionKeys: readonly string[]): Promise<TranscriptEntry[]> {
  const out: TranscriptEntry[] = [];
  for (const key of sessionKeys) {
    let before: number | null = null;
    do {
      const q: URLSearchParams = new URLSearchParams({ sessionKey: key, limit: '500', ...(before === null ? {} : { before: String(before) }) });
      const r: { status: number; body: { entries: TranscriptEntry[]; nextBefore: number | null } } = await call<{ entries: TranscriptEntry[]; nextBefore: number | null }>(base, 'GET', `/api/chat-history?${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      out.unshift(...r.body.entries);
      before = r.body.nextBefore;
    } while (before !== null);
  }
  return out;
}

/** The entry ids of the committed rows the page renders, top to bottom. */
export function renderedEntryIds(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('[...document.querySelectorAll("[data-entry-id]")].map((el) => el.getAttribute("data-entry-id"))');
}

/** The texts the live bubble showed, recorded by a MutationObserver installed in the page (installLiveRecorder). */
export function liveTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('globalThis.__svcLiveTexts ?? []');
}

/** Records every distinct text of the page's live bubbles from now on. */
export async function installLiveRecorder(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const seen = (globalThis.__svcLiveTexts = []);
    const take = () => {
      for (const el of document.querySelectorAll('[data-live-text]')) {
        const t = el.textContent;
        if (seen[seen.length - 1] !== t) seen.push(t);
      }
    };
    new MutationObserver(take).observe(document.body, { subtree: true, childList: true, characterData: true });
    take();
  })()`);
}

/** One HTTP request head that went through the proxy. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface CutProxy {
  port: number;
  /** The dashboard's address through the proxy. */
  base: string;
  /** Request heads seen so far, in order. */
  requests: SeenRequest[];
  /** Drops every open connection and refuses new ones (each is closed at once) until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

const HEAD = /(GET|POST|PATCH|PUT|DELETE) (\S+) HTTP\/1\.1\r\n([\s\S]*?)\r\n\r\n/g;

/** A loopback TCP proxy to 127.0.0.1:target. */
export async function startCutProxy(target: number): Promise<CutProxy> {
  const open = new Set<Socket>();
  const requests: SeenRequest[] = [];
  let down = false;
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: target });
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      for (const m of chunk.toString('latin1').matchAll(HEAD)) {
        const headers: Record<string, string> = {};
        for (const line of (m[3] ?? '').split('\r\n')) {
          const i = line.indexOf(':');
          if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        requests.push({ method: m[1] as string, path: m[2] as string, headers });
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    requests,
    cut() {
      down = true;
      for (const s of [...open]) s.destroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of [...open]) s.destroy();
        server.close(() => resolve());
      }),
  };
}
