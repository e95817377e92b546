// The app shell: the left nav with its badges (a drawer below the md
// breakpoint), the reconnect banner while a live stream is down, the theme
// toggle, and the page.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { streamHealth } from '../api/stream-health.ts';
import { useStore } from '../lib/store.ts';
import { useNavBadges, type Badge } from './badges.ts';
import { NAV } from './routes.tsx';
import { setTheme, themeStore, type ThemeChoice } from './theme.ts';

const TONE: Record<Badge['tone'], string> = {
  ok: 'bg-ok text-surface',
  warn: 'bg-warn text-surface',
  danger: 'bg-danger text-surface',
  muted: 'bg-surface-2 text-muted',
};

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  const badges = useNavBadges();
  return (
    <ul className="flex flex-col gap-1">
      {NAV.map((item) => {
        const active = location === item.href || location.startsWith(`${item.href}/`);
        const badge = item.badge ? badges[item.badge] : undefined;
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              className={`flex items-center justify-between rounded-md px-3 py-2 text-sm ${active ? 'bg-surface-2 font-semibold' : 'hover:bg-surface-2'}`}
            >
              <span>{item.label}</span>
              {badge && (
                <span title={badge.label} className={`rounded-full px-2 text-xs font-semibold ${TONE[badge.tone]}`}>
                  <span aria-hidden="true">{badge.text}</span>
                  <span className="sr-only">, {badge.label}</span>
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function ThemeToggle() {
  const choice = useStore(themeStore);
  return (
    <label className="flex items-center gap-2 text-xs text-muted">
      Theme
      <select className="input w-auto py-0.5" value={choice} onChange={(e) => setTheme(e.target.value as ThemeChoice)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

/** Below md the nav is a drawer: opening it moves focus to its first link; Escape or a link closes it and focus returns to Menu. */
function useDrawer() {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  const menuRef = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    drawerRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setOpen(false);
      menuRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  // Any navigation (a link, back/forward) closes it.
  useEffect(() => setOpen(false), [location]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) menuRef.current?.focus();
  };
  return { open, setOpen, close, menuRef, drawerRef };
}

export function Shell({ children }: { children: ReactNode }) {
  const drawer = useDrawer();
  // On a phone the nav is folded away: Menu carries what waits for the person.
  const pending = useNavBadges().approvals;
  const reconnecting = useStore(streamHealth).size > 0;
  return (
    <div className="flex h-full">
      <nav aria-label="Main" className="hidden w-56 shrink-0 flex-col gap-4 border-r border-border bg-surface p-3 md:flex">
        <Link href="/" className="px-3 text-lg font-bold">
          svc
        </Link>
        <NavLinks />
        <div className="mt-auto px-3">
          <ThemeToggle />
        </div>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center gap-3 border-b border-border bg-surface p-2 md:hidden">
          <button
            ref={drawer.menuRef}
            type="button"
            className="btn"
            aria-expanded={drawer.open}
            aria-controls="nav-drawer"
            onClick={() => (drawer.open ? drawer.close(false) : drawer.setOpen(true))}
          >
            Menu
            {pending && (
              <>
                <span aria-hidden="true" className={`rounded-full px-1.5 text-xs font-semibold ${TONE[pending.tone]}`}>
                  {pending.text}
                </span>
                <span className="sr-only">, {pending.label}</span>
              </>
            )}
          </button>
          <Link href="/" className="text-lg font-bold">
            svc
          </Link>
        </header>
        {drawer.open && (
          <nav
            ref={drawer.drawerRef}
            id="nav-drawer"
            aria-label="Main"
            className="border-b border-border bg-surface p-3 md:hidden"
          >
            <NavLinks onNavigate={() => drawer.close(false)} />
            <div className="mt-3 px-3">
              <ThemeToggle />
            </div>
          </nav>
        )}
        {reconnecting && (
          <div role="status" className="border-b border-warn bg-surface-2 px-4 py-2 text-sm text-warn">
            Live updates interrupted — reconnecting…
          </div>
        )}
        <main className="min-h-0 flex-1 overflow-auto">{children}</main>
      </div>
    </div>
  );
}
