// Each runtime's adapter class and health, for the fleet summary. Runtime ids
// are an open set (shared/agents/schemas.ts); the class says how svc reaches
// a runtime's agents. Only the gateway reports health in this build (through
// the gateway link); other runtimes have no adapter that reports yet, so
// their health says so rather than guessing.
import type { ConnectionState, ConnectionStatus } from '../gateway/connection.ts';

export const ADAPTER_CLASSES = {
  /** Agents live in the gateway process, reached over svc's persistent connection. */
  gateway: 'connected-substrate',
  /** Agents run inside svc itself. */
  native: 'in-process',
  /** Agents run as a local command-line tool per turn (`cli-a`, `cli-b`, ...). */
  cli: 'cli',
  /** A runtime id svc has no adapter class for. */
  unknown: 'unregistered',
} as const;

export type AdapterClass = (typeof ADAPTER_CLASSES)[keyof typeof ADAPTER_CLASSES];

export function adapterClass(runtime: string): AdapterClass {
  if (runtime === 'gateway') return ADAPTER_CLASSES.gateway;
  if (runtime === 'native') return ADAPTER_CLASSES.native;
  if (runtime.startsWith('cli-')) return ADAPTER_CLASSES.cli;
  return ADAPTER_CLASSES.unknown;
}

export interface RuntimeHealth {
  /** true when the runtime's source is up; false when down; null when nothing reports for it. */
  ok: boolean | null;
  /** The connection state for the gateway; `not-reported` for other runtimes. */
  state: ConnectionState | 'not-reported';
  /** When the current gateway session started (ms); null when not connected. */
  connectedAt: number | null;
  /** The last connect or session failure's code only (never its message, which may quote the URL). */
  lastError: string | null;
  /** Connect attempts since the last success. */
  failures: number;
}

/** The gateway's health from svc's connection status: a copy of safe fields, never the URL or a token. */
export function gatewayHealth(s: ConnectionStatus): RuntimeHealth {
  return {
    ok: s.state === 'connected',
    state: s.state,
    connectedAt: s.connectedAt,
    lastError: s.lastError?.code ?? null,
    failures: s.failures,
  };
}

export const unreportedHealth = (): RuntimeHealth => ({ ok: null, state: 'not-reported', connectedAt: null, lastError: null, failures: 0 });
