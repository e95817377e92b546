#!/usr/bin/env node
// The `svc` command: commander wiring only. Each command's behaviour lives in
// shared/launcher/ (spec "Command-line launcher").
import { Command } from 'commander';
import { loadConfig } from '../shared/config.ts';
import {
  BackupError,
  createContext,
  isInteractive,
  parseCountArg,
  runBackup,
  runDefault,
  runRestart,
  stopDashboard,
} from '../shared/launcher/index.ts';
import { messageOf } from '../shared/errors.ts';

const config = loadConfig();
const ctx = createContext(config);

/** Runs a command body, turning its result (or a thrown error) into the exit code. */
async function exitWith(body: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await body();
  } catch (err) {
    const message = messageOf(err);
    ctx.io.err(err instanceof BackupError ? `svc backup: ${message}` : `svc: ${message}`);
    process.exitCode = 1;
  }
}

const program = new Command('svc')
  .description('Find or start the svc dashboard and open it in a browser.')
  .version(config.version, '-V, --version', 'print the version')
  .helpOption('-h, --help', 'show help')
  // Program options come before a command, so `restart --no-open` is restart's own.
  .enablePositionalOptions()
  .option('--no-version-check', 'skip comparing a running dashboard\'s version with this launcher\'s')
  .option('-y, --yes', 'accept the restart offer for an older running dashboard without asking')
  .option('--no-open', 'do not open a browser')
  .action(async (opts: { versionCheck: boolean; yes?: boolean; open: boolean }) =>
    exitWith(() =>
      runDefault(ctx, { open: opts.open, versionCheck: opts.versionCheck, yes: opts.yes === true, interactive: isInteractive() }),
    ),
  );

program
  .command('backup')
  .description('copy svc.db consistently (online backup), even while the server runs')
  .argument('[dest]', 'file or existing folder (default ./svc-backup-<YYYYMMDD-HHMMSS>.db)')
  .option('-f, --force', 'overwrite an existing destination')
  .action(async (dest: string | undefined, opts: { force?: boolean }) =>
    exitWith(async () => {
      const written = await runBackup({ source: config.dbPath, dest, force: opts.force === true, cwd: process.cwd() });
      ctx.io.out(written);
      return 0;
    }),
  );

program
  .command('stop')
  .description('terminate the running dashboard server')
  .action(async () => exitWith(async () => ((await stopDashboard(ctx)).ok ? 0 : 1)));

program
  .command('restart')
  .description('stop the dashboard, then start it again on the same port')
  .option('--no-open', 'do not open a browser')
  .action(async (opts: { open: boolean }) =>
    exitWith(() => runRestart(ctx, { open: opts.open && program.opts<{ open: boolean }>().open })),
  );

program
  .command('eval')
  .description('run the deterministic smoke suite in this process; exit 1 unless every task passes')
  .option('--trials <n>', 'trials per task (floored, clamped 1-3; default 1)', parseCountArg)
  .option('--k <k>', 'k for pass^k (floored, clamped 1-3; default: trials)', parseCountArg)
  .option('--json', 'print the report as JSON (the POST /api/eval/smoke body)')
  .action(async (opts: { trials?: number; k?: number; json?: boolean }) => {
    // Loaded on demand: the suite pulls in the whole domain, which the other commands never need.
    const { runEval } = await import('../shared/launcher/eval.ts');
    await exitWith(() => runEval(ctx.io, opts));
  });

await program.parseAsync(process.argv);
