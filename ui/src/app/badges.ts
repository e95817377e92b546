// The nav's badges, each from a polled read (react-query pauses polling in
// hidden tabs and refetches on focus):
// - approvals: the pending approvals' count (GET /api/tools/approvals, 10 s;
//   the Approvals page polls the same key every 3 s while open);
// - gateway: running / stopped (GET /api/system/status, 15 s);
// - errors: the `error` events of the last 24 hours in the observability
//   error feed (GET /api/obs/errors?since=, 30 s; the feed holds at most the
//   500 newest, so the count shows "500+" at its cap).
import { usePendingApprovals } from '../api/approvals.ts';
import { ERROR_FEED_CAP, useRecentErrors } from '../api/obs.ts';
import { useSystemStatus } from '../api/system.ts';
import type { ErrorFeed, SystemStatus } from '../api/types.ts';

/** The nav items that carry a badge (routes.tsx NAV's `badge` values). */
export type NavBadgeKey = 'approvals' | 'gateway' | 'errors';

export interface Badge {
  text: string;
  tone: 'ok' | 'warn' | 'danger' | 'muted';
  /** What a screen reader says for it (the visible text is short). */
  label: string;
}

export function approvalsBadge(count: number | undefined): Badge | undefined {
  if (!count) return undefined;
  return { text: String(count), tone: 'warn', label: `${count} pending approval${count === 1 ? '' : 's'}` };
}

export function gatewayBadge(status: SystemStatus | undefined, failed: boolean): Badge | undefined {
  if (status) return status.gateway.running ? { text: 'running', tone: 'ok', label: 'gateway running' } : { text: 'stopped', tone: 'muted', label: 'gateway stopped' };
  return failed ? { text: '?', tone: 'muted', label: 'gateway state unknown' } : undefined;
}

export function errorsBadge(feed: ErrorFeed | undefined): Badge | undefined {
  const n = feed?.errors.length ?? 0;
  if (n === 0) return undefined;
  const text = n >= ERROR_FEED_CAP ? `${ERROR_FEED_CAP}+` : String(n);
  return { text, tone: 'danger', label: `${text} error${n === 1 ? '' : 's'} in the last 24 hours` };
}

export function useNavBadges(): Partial<Record<NavBadgeKey, Badge>> {
  const approvals = usePendingApprovals(10_000);
  const status = useSystemStatus(15_000);
  const errors = useRecentErrors();
  return {
    approvals: approvalsBadge(approvals.data?.length),
    gateway: gatewayBadge(status.data, status.isError),
    errors: errorsBadge(errors.data),
  };
}
