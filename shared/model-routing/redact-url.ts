// An upstream URL as the routing view shows it (issue 31 item 10): a base
// URL may carry a credential in its user-info (`https://user:pass@host`) or
// its query (`?key=…`, `?api-key=…`), and the view is read by anyone with
// the dashboard. User-info is dropped and every query value is replaced (the
// names stay: they say what the URL needs); a fragment is dropped.
export const REDACTED = 'redacted';

export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Not a URL (the registry's schema makes this unlikely): nothing of it is shown.
    return REDACTED;
  }
  u.username = '';
  u.password = '';
  u.hash = '';
  for (const name of [...new Set(u.searchParams.keys())]) u.searchParams.set(name, REDACTED);
  return u.toString();
}
