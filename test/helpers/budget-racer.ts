// A child process that reserves and settles model calls against budgets in
// one database file, for the ledger's race test (issue 22): run two on the
// same file, each on its own connection, and check that together they never
// spend past a cap.
//   node --import tsx budget-racer.ts <db path> <racer id> <calls> <estimate usd> <actual usd>
// It prints `ready`, waits for a line on stdin (so both start together),
// then prints `done <calls reserved> <calls refused>`.
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createBudgetLedger } from '../../shared/budgets/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { REPO_ROOT } from './server.ts';
import { startChild, tsArgs } from './spawn.ts';

export const RACE_SCOPE = { agentId: 'racer-agent', teamId: 'racer-team', taskId: null, model: 'gpt-4o' };

async function main(dbPath: string, id: string, calls: number, estimateUsd: number, actualUsd: number): Promise<void> {
  const db = openDatabase(dbPath);
  const ledger = createBudgetLedger({ db, warnPct: 80, hardCapUsdCents: null });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
  let reserved = 0;
  let refused = 0;
  for (let i = 0; i < calls; i++) {
    const callId = `${id}-${i}`;
    const r = ledger.reserve(callId, RACE_SCOPE, estimateUsd);
    if (!r.ok) {
      refused++;
      continue;
    }
    reserved++;
    ledger.settle(callId, actualUsd);
  }
  db.close();
  process.stdout.write(`done ${reserved} ${refused}\n`);
}

const SELF = fileURLToPath(import.meta.url);

/** Starts racers on `dbPath`, releases them together; returns each one's [reserved, refused]. */
export async function raceReservations(dbPath: string, ids: string[], calls: number, estimateUsd: number, actualUsd: number): Promise<Array<[number, number]>> {
  const children = ids.map((id) =>
    startChild(process.execPath, tsArgs(SELF, dbPath, id, String(calls), String(estimateUsd), String(actualUsd)), { cwd: REPO_ROOT, stdin: 'pipe' }),
  );
  try {
    await Promise.all(children.map((c) => c.line(/^ready$/, { what: 'a racer to be ready' })));
    const done = children.map((c) => c.line(/^done /, { what: 'a racer to finish', timeoutMs: 120_000 }));
    for (const c of children) c.proc.stdin?.write('go\n');
    return (await Promise.all(done)).map((line) => {
      const [, reserved, refused] = line.split(' ');
      return [Number(reserved), Number(refused)];
    });
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

if (process.argv[1] === SELF) {
  const [dbPath, id, calls, estimate, actual] = process.argv.slice(2);
  await main(dbPath as string, id as string, Number(calls), Number(estimate), Number(actual));
  process.exit(0);
}
