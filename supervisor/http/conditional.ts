// The two request headers a cached response answers to (RFC 9110):
// Accept-Encoding (may the body be gzipped?) and If-None-Match (does the
// client hold this version already?). Both run on every cached request, so
// the common cases return before any parsing.

// A dashboard sees a handful of distinct Accept-Encoding values (one per
// browser): each is parsed once.
const gzipVerdicts = new Map<string, boolean>();
const VERDICTS_MAX = 64;

function parseAcceptsGzip(header: string): boolean {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzip = q;
    else if (coding === '*') any = q;
  }
  // An explicit gzip entry decides; otherwise "*" stands for it.
  return (gzip ?? any ?? 0) > 0;
}

/** Whether a request's Accept-Encoding allows a gzip body. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let v = gzipVerdicts.get(header);
  if (v === undefined) {
    v = parseAcceptsGzip(header);
    if (gzipVerdicts.size >= VERDICTS_MAX) gzipVerdicts.clear();
    gzipVerdicts.set(header, v);
  }
  return v;
}

/** Whether If-None-Match names `etag` (or is "*"): weak comparison, as the RFC asks for this header. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || (t.startsWith('W/') && t.slice(2) === etag);
  });
}
