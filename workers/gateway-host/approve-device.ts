// Device pairing approval through the gateway CLI (spec "approve-device").
// `openclaw devices approve --latest` only previews the newest request and
// exits 1 (not a failure); its text names the request id, which a second
// call then approves. "No pending device pairing requests to approve" (also
// exit 1) means there is nothing to approve.
import type { ApproveResult } from '../../shared/channels/gateway-host.ts';
import { cleanLines, runBounded } from './proc.ts';

/** The request id in the preview's "Approve this exact request with: ..." line. */
export const APPROVE_ID_RE = /openclaw devices approve ([0-9a-f-]{36})/;
/** Each CLI call takes about 3.3 s; this bounds a stuck one. */
export const CLI_TIMEOUT_MS = 30_000;

export function parsePreview(text: string): { requestId: string } | null {
  const m = APPROVE_ID_RE.exec(text);
  return m ? { requestId: m[1] as string } : null;
}

const describe = (stdout: string, stderr: string) => cleanLines(`${stdout}\n${stderr}`).join('\n');

export async function approveDevice(opts: {
  cli: string | null;
  env: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
}): Promise<ApproveResult> {
  if (!opts.cli) return { outcome: 'not-installed' };
  const timeoutMs = opts.timeoutMs ?? CLI_TIMEOUT_MS;
  const preview = await runBounded(opts.cli, ['devices', 'approve', '--latest'], { timeoutMs, env: opts.env, cwd: opts.cwd });
  if (preview.spawnError !== null) return { outcome: 'spawn-failed', message: preview.spawnError };
  if (preview.timedOut) return { outcome: 'spawn-failed', message: `timed out after ${timeoutMs} ms` };
  const text = describe(preview.stdout, preview.stderr);
  const found = parsePreview(text);
  if (!found) return { outcome: 'none-pending', details: text };

  const approve = await runBounded(opts.cli, ['devices', 'approve', found.requestId], { timeoutMs, env: opts.env, cwd: opts.cwd });
  const output = describe(approve.stdout, approve.stderr);
  if (approve.exitCode === 0) return { outcome: 'approved', requestId: found.requestId, output };
  const why =
    approve.spawnError ??
    (approve.timedOut ? `timed out after ${timeoutMs} ms` : (output.split('\n').pop() ?? `exit code ${approve.exitCode}`));
  return { outcome: 'approve-failed', requestId: found.requestId, message: why || `exit code ${approve.exitCode}` };
}
