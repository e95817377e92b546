// The boot report (spec "Boot report") and the inputs its checks need.
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
  config: {
    logLevel: string;
    budgetPosture: string;
    budgetHardCapUsdCents: number | null;
    budgetWarnSoftPct: number;
    otelEnabledByDefault: boolean;
    otelActive: boolean;
  };
  resolved: {
    svcHome: string;
    dbPath: string;
    apiPort: number | null;
    stateDir: string;
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
