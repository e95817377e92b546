// The boot report (spec "Boot report") and the inputs its checks need.
import type { Config } from '../config.ts';
import type { Settings } from '../config-settings.ts';

type ReportBlock = 'config' | 'resolved';
/** The settings a report block shows, each under the field name its entry's `report` gives (shared/config-settings.ts). */
export type ReportedIn<B extends ReportBlock> = {
  [K in keyof Settings as NonNullable<Settings[K]['report']> extends `${B}.${infer F}` ? F : never]: Config[K];
};
/** The Config fields some report block shows. */
export type ReportedKey = { [K in keyof Settings]-?: [NonNullable<Settings[K]['report']>] extends [never] ? never : K }[keyof Settings];

export interface CheckResult {
  id: string;
  ok: boolean;
  message: string;
  detail?: Record<string, unknown>;
  durationMs: number;
}

export interface WorkerHealth {
  name: string;
  state: string;
  restarts: number;
  lastExitCode: number | null;
  lastError: string | null;
  since: number;
  /** Counters the worker reports about itself (tail: ticks and queries; ingest: batches, events and badBodies). */
  stats?: Record<string, number>;
}

export interface BootReport {
  startedAt: string;
  finishedAt: string;
  checks: CheckResult[];
  degraded: string[];
  fatal: string[];
  /** The reported settings (logLevel, budgetHardCapUsdCents, budgetWarnSoftPct), plus what the spec adds. */
  config: ReportedIn<'config'> & {
    budgetPosture: string;
    otelEnabledByDefault: boolean;
    otelActive: boolean;
  };
  /** The reported paths (svcHome, dbPath, stateDir), plus what the boot found. */
  resolved: ReportedIn<'resolved'> & {
    apiPort: number | null;
    vaultPresent: boolean;
    masterKeyOk: boolean;
  };
  /** Beyond the spec: supervision state of each long-lived worker. */
  workers: WorkerHealth[];
}

/** An in-process MCP server the health check can ask for `tools/list`. */
export interface McpProbe {
  name: string;
  listTools(): Promise<string[]>;
}

export interface VaultHealth {
  vaultPresent(): boolean;
  masterKeyOk(): boolean;
  checkVaultPerms(extraFiles: string[]): { skipped: boolean; reason?: string; problems: string[] };
  checkBootSentinel(): { state: 'ok' | 'absent' | 'mismatch' };
  ensureBootSentinel(): void;
}
