// One eval trial: a temporary directory with its own svc.db (migrated by
// openDatabase), the real domain built over it by createDomain (the same
// board, transitions and event log the server uses), the task's scenario
// and graders, then the directory removed in `finally` whatever happened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDomain, type Domain } from '../domain.ts';
import { openDatabase, type Db } from '../db/open.ts';
import { createSettingsTable } from '../db/settings-table.ts';
import { createTx } from '../db/tx.ts';
import { createEventLog } from '../events/event-log.ts';
import { createEventQueries } from '../events/queries.ts';
import { createLogger, type Logger } from '../log.ts';
import { check } from './graders.ts';
import { scoreTrial } from './scoring.ts';
import type { EvalTask, GraderResult, TrialContext, TrialResult } from './types.ts';
import { messageOf } from '../errors.ts';

/** Every trial's clock starts here and ticks 1 ms per read, so timestamps and orderings repeat exactly. */
export const EVAL_EPOCH_MS = Date.UTC(2025, 0, 1);
/** The directory name prefix of a trial's temporary database. */
export const TRIAL_DIR_PREFIX = 'svc-eval-';
/** More events than any scenario writes; graders read them all. */
const EVENTS_CAP = 5000;

export interface TrialOptions {
  /** Where the temporary directory is made (default: the OS temp dir). */
  tmpRoot?: string;
  /**
   * Wraps each domain the trial builds. Tests use it to break one rule on
   * purpose and prove the graders notice; the suite itself never sets it.
   */
  wrap?: (domain: Domain) => Domain;
  logger?: Logger;
}

function tickingClock(start: number): () => number {
  let t = start;
  return () => ++t;
}

/** Runs one trial of `task`. A scenario that throws is a failed trial, not a failed suite. */
export function runTrial(task: EvalTask, opts: TrialOptions = {}): TrialResult {
  const logger = opts.logger ?? createLogger({ level: 'silent' });
  const dir = mkdtempSync(join(opts.tmpRoot ?? tmpdir(), TRIAL_DIR_PREFIX));
  const connections: Db[] = [];
  try {
    const now = tickingClock(EVAL_EPOCH_MS);
    const open = (): Db => {
      const db = openDatabase(join(dir, 'svc.db'));
      connections.push(db);
      return db;
    };
    const build = (db: Db): Domain => {
      // No after-commit subscribers here (no live fan-out), so a hook error cannot happen; log it if one does.
      const tx = createTx(db, (err) => logger.error({ err, taskId: task.id }, 'eval trial commit hook failed'));
      const eventLog = createEventLog({ db, tx, logger, now });
      const domain = createDomain({ db, tx, settingsTable: createSettingsTable(db, now), eventLog, logger, now });
      return opts.wrap ? opts.wrap(domain) : domain;
    };
    const db = open();
    const queries = createEventQueries(db);
    let peer: Domain | null = null;
    const ctx: TrialContext = {
      domain: build(db),
      db,
      peer: () => (peer ??= build(open())),
      events: (taskId) => queries.page(0, queries.maxSeq(), { taskId }, EVENTS_CAP),
    };
    let graders: GraderResult[];
    try {
      graders = task.run(ctx);
    } catch (err) {
      // An unexpected throw (not a refusal the scenario expected) is what a
      // regression looks like too: report it as the trial's verdict.
      graders = [check('scenario', false, `scenario threw: ${messageOf(err)}`)];
    }
    return scoreTrial(task.id, graders);
  } finally {
    try {
      for (const db of connections) if (db.open) db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
