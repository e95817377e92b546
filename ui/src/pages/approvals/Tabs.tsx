// A tab list (WAI-ARIA tabs): click or Enter/Space selects; Left/Right,
// Home/End move between tabs and select (automatic activation).
import { useRef, type KeyboardEvent } from 'react';

export interface TabDef {
  id: string;
  label: string;
}

export function Tabs({ label, tabs, current, onSelect }: { label: string; tabs: readonly TabDef[]; current: string; onSelect: (id: string) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === current);
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 border-b border-border" onKeyDown={onKey}>
      {tabs.map((t) => {
        const selected = t.id === current;
        return (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={selected}
            aria-controls={selected ? `panel-${t.id}` : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(t.id)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${selected ? 'border-accent font-semibold text-text' : 'border-transparent text-muted hover:text-text'}`}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}
