// The gateway's exec policy through its RPC: exec.approvals.get for the file
// and its hash, exec.approvals.set { file, baseHash } to write it back. Both
// replies are the same snapshot, parsed with zod. The file comes back without
// the socket token and is sent back without it; the gateway keeps its own
// token when the written file has none. Every call is bounded.
import { ApprovalsSnapshotSchema, type ApprovalsSnapshot } from './schemas.ts';
import { messageOf } from '../errors.ts';

/** The gateway link, svc's live gateway connection (AppDeps.gatewayLink.call). */
export type GatewayCall = (method: string, params: unknown, opts: { timeoutMs: number; waitMs: number }) => Promise<unknown>;

export const GATEWAY_TIMEOUTS = { timeoutMs: 10_000, waitMs: 3_000 } as const;

/** A reply svc could not make sense of (thrown like a gateway error, with a code). */
export class UnexpectedReplyError extends Error {
  readonly code = 'UNEXPECTED_REPLY';
  constructor(method: string) {
    super(`${method} returned an unexpected reply`);
    this.name = 'UnexpectedReplyError';
  }
}

/** Codes svc's own client raises when there is no usable connection (not a refusal by the gateway). */
const UNREACHABLE_CODES = new Set(['UNAVAILABLE', 'TIMEOUT', 'CLOSED', 'UNREACHABLE', 'NOT_CONNECTED']);

export function gatewayErrorCode(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'ERROR';
}

export const isUnreachable = (err: unknown) => UNREACHABLE_CODES.has(gatewayErrorCode(err));

async function snapshot(call: GatewayCall, method: string, params: unknown): Promise<ApprovalsSnapshot> {
  const r = ApprovalsSnapshotSchema.safeParse(await call(method, params, GATEWAY_TIMEOUTS));
  if (!r.success) throw new UnexpectedReplyError(method);
  return r.data;
}

export const getApprovals = (call: GatewayCall) => snapshot(call, 'exec.approvals.get', {});

/** Writes `file` over the snapshot whose hash is `baseHash`; resolves to the post-write snapshot. */
export function setApprovals(call: GatewayCall, file: Record<string, unknown>, baseHash: string): Promise<ApprovalsSnapshot> {
  // Belt and braces: a file that somehow held a token must not be sent around.
  const { socket, ...rest } = file;
  const path = (socket as { path?: unknown } | undefined)?.path;
  const clean = typeof path === 'string' ? { ...rest, socket: { path } } : rest;
  return snapshot(call, 'exec.approvals.set', { file: clean, baseHash });
}

/** The raw agents map of a snapshot's file (kept loose so unknown fields survive a write). */
export function rawAgents(file: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const agents = file.agents;
  return typeof agents === 'object' && agents !== null && !Array.isArray(agents) ? (agents as Record<string, Record<string, unknown>>) : {};
}

export type AskWrite =
  | { ok: true; hash: string }
  | { ok: false; kind: 'unreachable' | 'refused' | 'not-verified'; code: string; message: string };

/** Sets `agents[bucket].ask` in the gateway's policy and checks the post-write reply shows it. */
export async function writeAgentAsk(call: GatewayCall, bucket: string, ask: string): Promise<AskWrite> {
  try {
    const current = await getApprovals(call);
    const agents = rawAgents(current.file);
    const file = { ...current.file, agents: { ...agents, [bucket]: { ...(agents[bucket] ?? {}), ask } } };
    const after = await setApprovals(call, file, current.hash);
    if (after.file.agents?.[bucket]?.ask !== ask) {
      return { ok: false, kind: 'not-verified', code: 'NOT_VERIFIED', message: 'the gateway reply does not show the new ask value' };
    }
    return { ok: true, hash: after.hash };
  } catch (err) {
    return {
      ok: false,
      kind: isUnreachable(err) ? 'unreachable' : 'refused',
      code: gatewayErrorCode(err),
      message: messageOf(err),
    };
  }
}
