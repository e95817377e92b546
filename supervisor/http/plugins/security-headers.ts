// Anti-framing and content policy (issue 15 #11). Every answer carries
// `X-Frame-Options: DENY` and a Content-Security-Policy with
// `frame-ancestors 'none'`, so no other site can frame the dashboard or an
// API answer (clickjacking). API answers are data, never a document: their
// policy allows nothing else. The UI entry page gets a policy it works under:
// its script, style, fetches and EventSource are all same-origin files and
// URLs, with no inline script or style. (API answers need no nosniff of
// their own: they are typed JSON, and even sniffed as a document their
// policy runs nothing. Two headers, not more: this is every request's cost.)
import type { FastifyReply } from 'fastify';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** The headers as [name, value] pairs, for answers written without a reply (client errors). */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['x-frame-options', 'DENY'],
  ['content-security-policy', API_CSP],
];

/** Sets the headers every answer carries; hijacked replies copy them from reply.getHeaders(). */
export function setSecurityHeaders(reply: FastifyReply): void {
  void reply.header('x-frame-options', 'DENY').header('content-security-policy', API_CSP);
}

/** The entry page's own policy (replaces the API one on that answer). */
export function setPagePolicy(reply: FastifyReply): void {
  void reply.header('content-security-policy', PAGE_CSP);
}
