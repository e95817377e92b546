// The nav's badges: pending approvals, the gateway's state, the error count.
// (Filled in by the shell work of issue 18; the skeleton shows none.)
import type { BadgeKey } from './routes.tsx';

export interface Badge {
  text: string;
  tone: 'ok' | 'warn' | 'danger' | 'muted';
  label: string;
}

export function useNavBadges(): Partial<Record<BadgeKey, Badge>> {
  return {};
}
