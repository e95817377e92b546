// Pure helpers of the access page: the URL that hands the token to the
// server once (it sets the cookie and redirects to the same address without
// the token), and the token's character rule (spec "Authentication" 5).
// Both URLs are absolute and on the page's own origin: a path such as
// `//evil.example/teams` is a path of this server, never a reference that a
// browser resolves to another host (it would take the token there).
export const ACCESS_PARAM = 'access_token';
const TOKEN_RE = /^[A-Za-z0-9._~-]+$/;

/** Where the page is: `window.location`, or its parts. */
export interface PageLocation {
  origin: string;
  pathname: string;
  search: string;
}

function onThisOrigin(at: PageLocation, params: URLSearchParams): string {
  const url = new URL(at.origin);
  url.pathname = at.pathname;
  url.search = params.toString();
  return url.href;
}

/** This address with `access_token` set to `token` (any earlier one replaced). */
export function accessUrl(at: PageLocation, token: string): string {
  const params = new URLSearchParams(at.search);
  params.set(ACCESS_PARAM, token);
  return onThisOrigin(at, params);
}

/** This address without `access_token` (after a token the server did not accept). */
export function withoutToken(at: PageLocation): string {
  const params = new URLSearchParams(at.search);
  params.delete(ACCESS_PARAM);
  return onThisOrigin(at, params);
}

/** null when the token has the allowed shape, else what to tell the person. */
export function checkToken(token: string): string | null {
  if (token === '') return 'Paste the access token first.';
  return TOKEN_RE.test(token) ? null : 'An access token has only letters, digits and the characters . _ ~ -. Check what you pasted.';
}
