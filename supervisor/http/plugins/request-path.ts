// The one reading of a request target that the gate, the UI catch-all, the
// 404 handler and the WebSocket upgrade share (issue 15 #1). The router
// accepts more forms than `/path?query`: an absolute-form target
// (`http://host/api/x`, whose scheme and host it drops) and %-escapes (which
// it decodes). Anything the router did not match is judged by this
// normalised path, so no spelling of an /api path can reach the UI or slip
// past the gate: absolute-form → its path, %-decoded once, `\` read as `/`,
// repeated slashes collapsed, `.` and `..` segments resolved.

export interface RequestTarget {
  /** Decoded and normalised; always starts with exactly one `/`. */
  path: string;
  /** The raw query string (after `?`, before any `#`), not decoded. */
  query: string;
}

// scheme "://" authority: the router reads http and https targets this way;
// any other scheme is read the same here, so it is judged rather than skipped.
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*/;

/** Resolves `.`, `..`, empty segments and backslashes; keeps a trailing slash. */
export function normalisePath(decoded: string): string {
  const segments = decoded.replace(/\\/g, '/').split('/');
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  const last = segments[segments.length - 1];
  const trailing = out.length > 0 && segments.length > 1 && (last === '' || last === '.' || last === '..');
  return `/${out.join('/')}${trailing ? '/' : ''}`;
}

/** The normalised target, or null when its path holds a malformed %-escape (no route can match it). */
export function parseTarget(url: string): RequestTarget | null {
  let rest = url;
  if (rest.charCodeAt(0) !== 47 /* '/' */) {
    const m = ABSOLUTE_FORM.exec(rest);
    // Not absolute-form either (`*`, `api/x`): read as a path, so it is judged too.
    if (m) rest = rest.slice(m[0].length);
  }
  const q = rest.indexOf('?');
  const h = rest.indexOf('#');
  const pathEnd = q === -1 ? (h === -1 ? rest.length : h) : h === -1 ? q : Math.min(q, h);
  const query = q === -1 || (h !== -1 && h < q) ? '' : rest.slice(q + 1, h > q ? h : undefined);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest.slice(0, pathEnd));
  } catch {
    // A malformed %-escape: the caller treats it as an /api path (denied, never the UI).
    return null;
  }
  return { path: normalisePath(decoded), query };
}

/** Whether a normalised path is /api or below it; case-folded (spec "Authentication" 3). */
export function isApiPath(path: string): boolean {
  if (path.length < 4) return false;
  const p = path.slice(0, 5).toLowerCase();
  return p === '/api' || p === '/api/';
}

/** Whether a raw target is, or may be, an /api path: a target that cannot be decoded counts as one. */
export function targetIsApi(url: string): boolean {
  const t = parseTarget(url);
  return t === null || isApiPath(t.path);
}

/**
 * A same-origin Location for a normalised path: each segment %-encoded, so
 * the value starts with exactly one `/` and holds no scheme, host, `\`,
 * `?`, `#` or control character of its own.
 */
export function locationFor(path: string, query: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return query ? `${encoded}?${query}` : encoded;
}
