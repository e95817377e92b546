// What the gateway reconciler's check costs each write through svc's API
// (issue 30 item 1: after every successful write, the reconciler looks
// whether svc's side of the desired state changed). The check is a stamp
// of the tables the desired state is read from (`createSvcSideStamp`: row
// counts and newest updates of agents, teams and the settings it reads);
// only when the stamp moved is the desired state itself computed (every
// roster list, the agents on teams) and compared, printed here too. In
// process, on the teams-list seed (50 teams, 5,000 agents, 5 per team
// assigned), the process's CPU time per call, median of 200 after 20
// warm-up. Baseline: the same seed's `GET /api/teams` body built as the
// route builds it on a miss (`domain.teams.list`). Target (chosen, the
// issue names none): the check within 4x that list, so a write pays no more
// than a few list reads for the gateway to stay in step.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createDomain } from '../../shared/domain.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createSvcSideStamp, desiredState, fingerprintOf } from '../../shared/gateway-wiring/desired.ts';
import { createLogger } from '../../shared/log.ts';
import { createRedactor } from '../../shared/redact.ts';
import { seedTeams } from './lib/seed.ts';
import { fmt } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const WARM = 20;
const RUNS = 200;
const MAX_RATIO = 4;

/** CPU milliseconds of each of `runs` calls of `fn`, after `warm` unmeasured ones. */
function cpuTimes(fn: () => unknown, warm: number, runs: number): number[] {
  for (let i = 0; i < warm; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t);
    out.push((d.user + d.system) / 1000);
  }
  return out.sort((a, b) => a - b);
}

const median = (xs: number[]): number => xs[Math.floor(xs.length / 2)] as number;
const p99 = (xs: number[]): number => xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] as number;

export const gatewayWiring: Benchmark = {
  name: 'gateway-wiring',
  async run(): Promise<BenchResult> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wiring-'));
    try {
      const dbPath = join(dir, 'svc.db');
      seedTeams(dbPath, { teams: 50, agents: 5000, assignedPerTeam: 5 });
      const db = openDatabase(dbPath);
      const logger = createLogger({ level: 'silent', redactor: createRedactor(() => []) });
      const tx = createTx(db, () => {});
      const settingsTable = createSettingsTable(db);
      const eventLog = createEventLog({ db, tx, logger, redactor: createRedactor(() => []) });
      const domain = createDomain({ db, tx, settingsTable, eventLog, logger });
      const check = createSvcSideStamp(db);
      const full = () => fingerprintOf(desiredState({ domain, settings: settingsTable, routing: () => true, svcPort: () => 18790 }));
      const onTeams = desiredState({ domain, settings: settingsTable, routing: () => true, svcPort: () => 18790 }).onTeams.length;
      const list = () => JSON.stringify(domain.teams.list(false));
      const checkMs = cpuTimes(check, WARM, RUNS);
      const fullMs = cpuTimes(full, WARM, RUNS);
      const listMs = cpuTimes(list, WARM, RUNS);
      db.close();
      const ratio = median(checkMs) / median(listMs);
      console.log(`# gateway-wiring: check median ${median(checkMs).toFixed(3)} ms, p99 ${p99(checkMs).toFixed(3)} ms; the desired state when the stamp moved: median ${fmt(median(fullMs))} ms (${onTeams} agents on 50 teams of 5,000 agents); teams list median ${median(listMs).toFixed(3)} ms`);
      return {
        name: 'gateway-wiring',
        figures: `check median ${median(checkMs).toFixed(3)} ms, p99 ${p99(checkMs).toFixed(3)} ms; desired state ${fmt(median(fullMs))} ms; list ${median(listMs).toFixed(3)} ms`,
        ratio: `${ratio.toFixed(2)}x the teams list`,
        target: `<= ${MAX_RATIO}x`,
        pass: ratio <= MAX_RATIO,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
