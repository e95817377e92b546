// Every client route and its lazy page. The static plugin's GET catch-all
// serves index.html for all of them, so each one deep-links and reloads.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface RouteDef {
  path: string;
  page: LazyExoticComponent<ComponentType<{ params: Record<string, string | undefined> }>>;
}

const page = (load: () => Promise<{ default: ComponentType<{ params: Record<string, string | undefined> }> }>) => lazy(load);

export const ROUTES: readonly RouteDef[] = [
  { path: '/', page: page(() => import('../pages/home/HomePage.tsx')) },
  { path: '/setup', page: page(() => import('../pages/setup/SetupPage.tsx')) },
  { path: '/teams', page: page(() => import('../pages/teams/TeamsPage.tsx')) },
  { path: '/teams/:id', page: page(() => import('../pages/team-chat/TeamChatPage.tsx')) },
  { path: '/teams/:id/settings', page: page(() => import('../pages/team-settings/TeamSettingsPage.tsx')) },
  { path: '/teams/:id/board', page: page(() => import('../pages/board/BoardPage.tsx')) },
  { path: '/board', page: page(() => import('../pages/board/BoardPage.tsx')) },
  { path: '/approvals', page: page(() => import('../pages/approvals/ApprovalsPage.tsx')) },
  { path: '/budgets', page: page(() => import('../pages/budgets/BudgetsPage.tsx')) },
  { path: '/runs/:runId', page: page(() => import('../pages/trace/RunTracePage.tsx')) },
  { path: '/gateway', page: page(() => import('../pages/gateway/GatewayPage.tsx')) },
  { path: '/settings', page: page(() => import('../pages/settings/SettingsPage.tsx')) },
];

export const NotFoundPage = page(() => import('../pages/not-found/NotFoundPage.tsx'));
export const AccessPage = lazy(() => import('../pages/access/AccessPage.tsx'));

/** The left nav, in order. */
export const NAV = [
  { href: '/setup', label: 'Setup', badge: null },
  { href: '/teams', label: 'Teams', badge: null },
  { href: '/board', label: 'Board', badge: null },
  { href: '/approvals', label: 'Approvals', badge: 'approvals' },
  { href: '/budgets', label: 'Budgets', badge: null },
  { href: '/gateway', label: 'Gateway', badge: 'gateway' },
  { href: '/settings', label: 'Settings', badge: 'errors' },
] as const;

export type BadgeKey = NonNullable<(typeof NAV)[number]['badge']>;
