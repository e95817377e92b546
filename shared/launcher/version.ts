// Versions: the semver order, GET /api/system/self-version's answer (built
// here for supervisor/http/routes/system.ts), and the running-server version
// check of the launcher's default action, which reads that answer's
// `current` (with `?local=1`) and compares it to the launcher's own version.
// Anything unreadable fails open (attach).
import { z } from 'zod';
import { getJson } from './http-json.ts';
import { PROBE_HOST, PROBE_TIMEOUT_MS } from './probe.ts';

interface SemVer {
  core: [number, number, number];
  pre: string[];
}

const SEMVER_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseSemver(v: string): SemVer | null {
  const m = SEMVER_RE.exec(v.trim());
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

function comparePre(a: string[], b: string[]): number {
  // A release sorts after any of its prereleases.
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) < Number(y) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    if (!nx && x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** -1, 0 or 1 as in a sort; null when either side is not a semantic version. */
export function compareVersions(a: string, b: string): number | null {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i++) {
    const d = (x.core[i] as number) - (y.core[i] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return comparePre(x.pre, y.pre);
}

/** 'older' only when the running version is known, real and lower than the launcher's. */
export function versionVerdict(running: string | null, launcher: string): 'attach' | 'older' {
  if (running === null || running.trim().startsWith('0.0.0')) return 'attach';
  return compareVersions(running, launcher) === -1 ? 'older' : 'attach';
}

/** GET /api/system/self-version (docs/gateway.md). */
export const SelfVersion = z.object({
  /** The running svc's version. */
  current: z.string(),
  /** The registry's latest release; null when not asked (local, no package, registry off) or not answered. */
  latest: z.string().nullable(),
  updateAvailable: z.boolean(),
  /** Whether the registry answered. */
  checked: z.boolean(),
  /** Why nothing was looked up, when the user can change that (SVC_UPDATE_PACKAGE unset). */
  message: z.string().optional(),
});
export type SelfVersion = z.infer<typeof SelfVersion>;

/** The answer for a running `current` and the registry's `latest` (null: not asked or no answer). */
export function selfVersion(current: string, latest: string | null, message?: string): SelfVersion {
  const updateAvailable = latest !== null && (compareVersions(latest, current) ?? 0) > 0;
  return { current, latest, updateAvailable, checked: latest !== null, ...(message === undefined ? {} : { message }) };
}

/** All the launcher reads of the answer: a server of another version may answer with other fields. */
const RunningVersion = SelfVersion.pick({ current: true });

/**
 * The running dashboard's `current` version, or null when it cannot be read.
 * `accessToken` only for a dashboard discovery authorized (discover.ts).
 */
export async function fetchRunningVersion(port: number, accessToken: string | null): Promise<string | null> {
  const reply = await getJson({
    host: PROBE_HOST,
    port,
    path: '/api/system/self-version?local=1',
    timeoutMs: PROBE_TIMEOUT_MS,
    bearer: accessToken ?? undefined,
  });
  if (!reply || reply.status !== 200) return null;
  const parsed = RunningVersion.safeParse(reply.body);
  return parsed.success ? parsed.data.current : null;
}
