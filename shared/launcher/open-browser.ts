// Opening the dashboard in the user's browser: the platform's opener,
// detached so it never ties the launcher's lifetime to the browser. A failure
// is only printed; the URL is already on screen.
import { spawn } from 'node:child_process';
import { childEnv } from '../config.ts';

export function browserCommand(url: string, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start`'s first quoted argument is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Resolves once the opener has started (or failed to). */
export function openBrowser(url: string, onError: (line: string) => void): Promise<void> {
  const { command, args } = browserCommand(url);
  return new Promise((resolve) => {
    // The browser inherits the opener's environment: the desktop session, never svc's secrets.
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true, env: childEnv({}, 'opener') });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', (err) => {
      onError(`svc: could not open a browser (${err.message}); open ${url} yourself.`);
      resolve();
    });
  });
}
