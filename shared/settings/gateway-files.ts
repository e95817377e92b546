// Readers for the OpenClaw gateway's own files: its dotenv file and its
// JSON5-ish config. Both are written by hand by users, so both readers are
// tolerant and never throw; anything unusable reads as "nothing there".
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { gatewayPaths } from '../paths.ts';

const DOTENV_LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

/** Value part of a dotenv line: quoted values are taken literally, unquoted ones lose an inline ` #` comment. */
function dotenvValue(raw: string): string {
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const end = raw.indexOf(quote, 1);
    if (end > 0) {
      const inner = raw.slice(1, end);
      // dotenv expands \n only inside double quotes.
      return quote === '"' ? inner.replace(/\\n/g, '\n') : inner;
    }
  }
  const comment = raw.search(/\s#/);
  return (comment >= 0 ? raw.slice(0, comment) : raw).trim();
}

/**
 * Parses dotenv text: KEY=VALUE lines, optional `export ` prefix, `#` comment
 * lines, blank lines, optional single or double quotes. The last assignment
 * of a key wins. Lines that are not assignments are skipped.
 */
export function parseDotenv(text: string): Record<string, string> {
  // A Map then fromEntries, so a key such as `__proto__` is a plain own key.
  const out = new Map<string, string>();
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = DOTENV_LINE.exec(line);
    if (!m) continue;
    out.set(m[1] as string, dotenvValue((m[2] as string).trim()));
  }
  return Object.fromEntries(out);
}

/** The gateway's `.env` as a map; empty when missing or unreadable. Never throws. */
export function readGatewayEnv(stateDir: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(gatewayPaths(stateDir).envFile, 'utf8');
  } catch {
    // No env file (the usual case) or an unreadable one: the spec's answer for
    // both is "no variables from the env file"; token resolution goes on.
    return {};
  }
  return parseDotenv(text);
}

/**
 * Walks `text` outside string literals: `step` sees each index that is not
 * inside a string and returns how many characters it consumed (0 = copy one).
 */
function scanOutsideStrings(text: string, step: (i: number, emit: (s: string) => void) => number): string {
  let out = '';
  const emit = (s: string) => (out += s);
  let quote: string | null = null;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (quote) {
      // A backslash escapes the next character, whatever it is.
      const len = c === '\\' ? 2 : 1;
      out += text.slice(i, i + len);
      if (c === quote) quote = null;
      i += len;
      continue;
    }
    const used = step(i, emit);
    if (used > 0) {
      i += used;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    out += c;
    i += 1;
  }
  return out;
}

/**
 * Turns JSON5-ish text into plain JSON: removes `//` and `/* *\/` comments,
 * then trailing commas before `}` or `]`, leaving string contents untouched.
 */
export function stripJsonComments(text: string): string {
  const noComments = scanOutsideStrings(text, (i, emit) => {
    if (text.startsWith('//', i)) {
      const eol = text.indexOf('\n', i);
      return (eol < 0 ? text.length : eol) - i;
    }
    if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      emit(' '); // a comment separates tokens, as whitespace would
      return (end < 0 ? text.length : end + 2) - i;
    }
    return 0;
  });
  return scanOutsideStrings(noComments, (i) => {
    if (noComments[i] !== ',') return 0;
    let j = i + 1;
    while (j < noComments.length && /\s/.test(noComments[j] as string)) j += 1;
    return noComments[j] === '}' || noComments[j] === ']' ? 1 : 0;
  });
}

export interface GatewayConfigRead {
  /** The parsed top-level object; null when missing or unusable. */
  config: Record<string, unknown> | null;
  /** The file exists and was read but is not a JSON(5-ish) object. */
  corrupt: boolean;
}

/** Reads `<stateDir>/openclaw.json`. Never throws. */
export function readGatewayConfig(stateDir: string): GatewayConfigRead {
  let text: string;
  try {
    text = readFileSync(gatewayPaths(stateDir).configFile, 'utf8');
  } catch {
    // Missing or unreadable: the gateway config is only a fallback source of
    // the token, so resolution goes on without it. An I/O failure is not a
    // statement about the file's contents, hence not reported as corrupt.
    return { config: null, corrupt: false };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(text.replace(/^\uFEFF/, '')));
  } catch {
    // The file holds the gateway token, and V8's parse errors quote the input,
    // so the error itself is dropped; the flag is the report.
    return { config: null, corrupt: true };
  }
  // JSON.parse's own object as it is (not a copy): a key such as `__proto__`
  // stays an own key, so an edit writes back every key the user had.
  if (!isPlainJsonObject(parsed)) return { config: null, corrupt: true };
  return { config: parsed, corrupt: false };
}

const isPlainJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Only the two fields svc needs; a wrong-typed field reads as absent.
const GatewayAuthSchema = z.object({
  gateway: z
    .object({
      port: z.number().int().min(1).max(65535).optional().catch(undefined),
      auth: z.object({ token: z.string().optional().catch(undefined) }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** `gateway.port` and `gateway.auth.token` from a parsed gateway config (token trimmed, blank = null). */
export function gatewayAuthFromConfig(config: unknown): { port: number | null; token: string | null } {
  const parsed = GatewayAuthSchema.safeParse(config);
  if (!parsed.success) return { port: null, token: null };
  const token = parsed.data.gateway?.auth?.token?.trim() ?? '';
  return { port: parsed.data.gateway?.port ?? null, token: token === '' ? null : token };
}
