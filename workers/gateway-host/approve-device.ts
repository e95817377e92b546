// Device pairing approval through the gateway CLI (spec "approve-device";
// issue 15 #8). svc approves its OWN device only: the pending request whose
// deviceId is svc's device identity (proxy-device-identity.json), found in
// `openclaw devices list --json`, then approved by its exact id with
// `openclaw devices approve <requestId>`. Never `--latest`: the newest
// request may be any device's, and approving it would let that device in.
// Requests from other devices are left pending for the user to judge.
import { z } from 'zod';
import type { ApproveResult } from '../../shared/channels/gateway-host.ts';
import { cleanLines, runBounded, type RunResult } from './proc.ts';

/** Each CLI call takes about 3.3 s; this bounds a stuck one. */
export const CLI_TIMEOUT_MS = 30_000;

const PendingRequest = z.object({ requestId: z.string().min(1), deviceId: z.string(), ts: z.number().optional().catch(undefined) });
/**
 * The part of `devices list --json` svc reads (docs/gateway-facts.md, "Pairing
 * and devices list"): `{ pending: [{ requestId, deviceId, ..., ts }], paired: [...] }`.
 */
export const DevicesList = z.object({ pending: z.array(PendingRequest) });
export type DevicesList = z.infer<typeof DevicesList>;

/** The JSON document in the CLI's output (anything it prints before the document, such as a warning, is skipped). */
export function parseDevicesList(stdout: string): DevicesList | null {
  const start = stdout.indexOf('{');
  const end = stdout.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  try {
    const parsed = DevicesList.safeParse(JSON.parse(stdout.slice(start, end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    // Not JSON after all: the caller reports the listing as unreadable.
    return null;
  }
}

/** svc's own pending request (the newest, when the device re-requested), and how many other devices wait. */
export function pickOwnRequest(list: DevicesList, deviceId: string): { own: string | null; others: number } {
  const own = list.pending.filter((p) => p.deviceId === deviceId).sort((a, b) => (b.ts ?? 0) - (a.ts ?? 0))[0];
  return { own: own?.requestId ?? null, others: list.pending.filter((p) => p.deviceId !== deviceId).length };
}

const describe = (r: RunResult) => cleanLines(`${r.stdout}\n${r.stderr}`).join('\n');

/** Why a CLI run failed, in one line. */
function failure(r: RunResult, timeoutMs: number): string {
  if (r.spawnError !== null) return r.spawnError;
  if (r.timedOut) return `timed out after ${timeoutMs} ms`;
  return describe(r).split('\n').pop() || `exit code ${r.exitCode}`;
}

export function nonePendingDetails(deviceId: string, others: number): string {
  const device = `svc's device ${deviceId.slice(0, 12)}…`;
  if (others === 0) return `No pending device pairing requests (${device} has none)`;
  const what = others === 1 ? "another device's request was" : `${others} other devices' requests were`;
  return `No pending pairing request from ${device}; ${what} left alone (approve it yourself with \`openclaw devices approve <requestId>\` if you trust it)`;
}

export async function approveDevice(opts: {
  cli: string | null;
  /** svc's device id: the only device this approves. */
  deviceId: () => string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
}): Promise<ApproveResult> {
  if (!opts.cli) return { outcome: 'not-installed' };
  const timeoutMs = opts.timeoutMs ?? CLI_TIMEOUT_MS;
  const run = (args: string[]) => runBounded(opts.cli as string, args, { timeoutMs, env: opts.env, kind: 'gateway-cli' });

  const listing = await run(['devices', 'list', '--json']);
  if (listing.spawnError !== null || listing.timedOut || listing.exitCode !== 0) return { outcome: 'spawn-failed', message: failure(listing, timeoutMs) };
  const list = parseDevicesList(listing.stdout);
  if (!list) return { outcome: 'spawn-failed', message: 'could not read the output of `devices list --json`' };
  const deviceId = opts.deviceId();
  const { own, others } = pickOwnRequest(list, deviceId);
  if (own === null) return { outcome: 'none-pending', details: nonePendingDetails(deviceId, others) };

  const approve = await run(['devices', 'approve', own]);
  if (approve.exitCode === 0) return { outcome: 'approved', requestId: own, output: describe(approve) };
  return { outcome: 'approve-failed', requestId: own, message: failure(approve, timeoutMs) };
}
