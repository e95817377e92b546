// A child process that edits one of svc's shared files in a loop, for the
// lock tests (issue 15 #18): run two of them on the same file, each changing
// its own keys, and check that no change is lost.
//   node --import tsx concurrent-writer.ts <settings|env|config> <path> <writer id> <count>
// It prints `ready`, waits for a line on stdin (so both start together),
// then writes and prints `done <lost>`: how many times a read right after its
// own write found its own value already gone (overwritten by a stale copy).
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { applyConfigPatch, editGatewayConfig } from '../../shared/gateway/config-file.ts';
import { updateGatewayEnv } from '../../shared/gateway/env-file.ts';
import { readSettings, saveSettings } from '../../shared/settings/index.ts';
import { REPO_ROOT } from './server.ts';
import { startChild, tsArgs } from './spawn.ts';

export type WriterKind = 'settings' | 'env' | 'config';

const quiet = { warn: () => undefined, info: () => undefined };

function writeOnce(kind: WriterKind, path: string, id: string, i: number): boolean {
  if (kind === 'settings') {
    // Writer "a" owns gateway.token, any other writer owns firstRunDismissedAt.
    if (id === 'a') saveSettings(path, { gatewayToken: `a-${i}` });
    else saveSettings(path, { firstRunDismissedAt: i });
    const now = readSettings(path).settings;
    return id === 'a' ? now.gatewayToken === `a-${i}` : now.firstRunDismissedAt === i;
  }
  if (kind === 'env') {
    updateGatewayEnv(path, { [`${id.toUpperCase()}_${i}`]: String(i) });
    return true;
  }
  editGatewayConfig(path, quiet, (c) => applyConfigPatch(c, { agentModel: { agentId: `${id}${i}`, model: 'p/m' } }, quiet));
  return true;
}

async function main(kind: WriterKind, path: string, id: string, count: number): Promise<void> {
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
  let lost = 0;
  for (let i = 0; i < count; i++) if (!writeOnce(kind, path, id, i)) lost++;
  process.stdout.write(`done ${lost}\n`);
}

const SELF = fileURLToPath(import.meta.url);

/** Starts two writers on `path`, releases them together, and returns how many own writes each saw lost. */
export async function raceWriters(kind: WriterKind, path: string, ids: [string, string], count: number): Promise<number[]> {
  const children = ids.map((id) => startChild(process.execPath, tsArgs(SELF, kind, path, id, String(count)), { cwd: REPO_ROOT, stdin: 'pipe' }));
  try {
    await Promise.all(children.map((c) => c.line(/^ready$/, { what: 'a writer to be ready' })));
    const done = children.map((c) => c.line(/^done /, { what: 'a writer to finish', timeoutMs: 120_000 }));
    for (const c of children) c.proc.stdin?.write('go\n');
    return (await Promise.all(done)).map((line) => Number(line.split(' ')[1]));
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

if (process.argv[1] === SELF) {
  const [kind, path, id, count] = process.argv.slice(2);
  await main(kind as WriterKind, path as string, id as string, Number(count));
  process.exit(0);
}
