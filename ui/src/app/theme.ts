// Light and dark: the system's choice unless the person picked one with the
// toggle (kept in localStorage: a display preference, not server state).
import { createStore } from '../lib/store.ts';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'svc.theme';

function readChoice(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

export const themeStore = createStore<ThemeChoice>(readChoice());
const media = window.matchMedia('(prefers-color-scheme: dark)');

function apply(): void {
  const choice = themeStore.get();
  const dark = choice === 'dark' || (choice === 'system' && media.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function setTheme(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  themeStore.set(choice);
}

export function initTheme(): void {
  apply();
  themeStore.subscribe(apply);
  media.addEventListener('change', apply);
}
