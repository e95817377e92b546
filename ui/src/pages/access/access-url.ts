// Pure helpers of the access page: the URL that hands the token to the
// server once (it sets the cookie and redirects to the same address without
// the token), and the token's character rule (spec "Authentication" 5).
export const ACCESS_PARAM = 'access_token';
const TOKEN_RE = /^[A-Za-z0-9._~-]+$/;

/** The current path and query with `access_token` set to `token` (any earlier one replaced). */
export function accessUrl(pathname: string, search: string, token: string): string {
  const params = new URLSearchParams(search);
  params.set(ACCESS_PARAM, token);
  return `${pathname}?${params.toString()}`;
}

/** The address without `access_token` (after a token the server did not accept). */
export function withoutToken(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(ACCESS_PARAM);
  const q = params.toString();
  return q ? `${pathname}?${q}` : pathname;
}

/** null when the token has the allowed shape, else what to tell the person. */
export function checkToken(token: string): string | null {
  if (token === '') return 'Paste the access token first.';
  return TOKEN_RE.test(token) ? null : 'An access token has only letters, digits and the characters . _ ~ -. Check what you pasted.';
}
