// The one redactor. Every secret-shaped thing that could reach a response, a
// log line, an event row or an error string passes through here:
//  - maskData(): deep-masks credential-shaped keys and values of a JSON value;
//  - createRedactor(): also masks the exact secret values in play (the gateway
//    token, the access token, the master key, provider keys) in free text and
//    deep values; the event log's write path uses it where the writer has it.
// Numbers and booleans are never masked, so numeric telemetry survives.

export const MASK = '••••';

/** Key names that hold credentials: normalised (lowercase, alphanumerics only), matched at the end. */
const SENSITIVE_KEY = /(token|secret|password|passwd|passphrase|apikey|privatekey|accesskey|secretkey|credential|credentials|authorization|cookie|setcookie|signature|masterkey|vaultkey)$/;

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** Substrings that look like credentials whatever key they sit under. */
export const VALUE_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, MASK],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, MASK],
  [/\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g, MASK],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, MASK],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, MASK],
  [/\bAKIA[0-9A-Z]{16}\b/g, MASK],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, MASK],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, MASK],
  // name=value pairs in URLs, env lines and command lines.
  [/\b([A-Za-z0-9_]*(?:token|secret|password|passwd|api[_-]?key|access[_-]?key|private[_-]?key))(\s*[=:]\s*)(["']?)[^\s"'&,;]{3,}\3/gi, `$1$2$3${MASK}$3`],
];

// Every pattern above needs one of these substrings (case-insensitively): a
// string without any of them is returned after one scan instead of ten. Keep
// it in step with VALUE_PATTERNS (test/unit/redact.test.ts checks each).
const MAYBE_SECRET = /-----BEGIN|bearer|basic|sk-|gh[opusr]_|github_pat_|xox|akia|aiza|eyj|token|secret|passw|api[_-]?key|access[_-]?key|private[_-]?key/i;

export function maskText(s: string): string {
  if (!MAYBE_SECRET.test(s)) return s;
  let out = s;
  for (const [re, rep] of VALUE_PATTERNS) out = out.replace(re, rep);
  return out;
}

const MAX_DEPTH = 32;

/**
 * Raise when maskData's walk changes in a way the rule sources below do not
 * show (MASK_RULES_VERSION changes by itself when a pattern or key rule does).
 */
const MASK_LOGIC_EPOCH = 1;

/**
 * Which masking rules a stored event's data went through (the events table's
 * mask_version): a read re-masks only rows stored under other rules. Derived
 * from the rules themselves (FNV-1a over their sources), so a changed
 * pattern cannot be forgotten; never 0, which marks "unknown writer".
 */
export const MASK_RULES_VERSION: number = (() => {
  const text = [MASK_LOGIC_EPOCH, MASK, SENSITIVE_KEY.source, MAX_DEPTH, ...VALUE_PATTERNS.flatMap(([re, rep]) => [re.source, re.flags, rep])].join('\u0000');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 1) || 1;
})();

/**
 * The one deep walker. Strings go through `text`; under a credential key
 * every non-empty string is masked at any depth; numbers, booleans and null
 * always survive; past MAX_DEPTH the rest is masked rather than returned raw.
 */
function walk(value: unknown, text: (s: string) => string, depth: number, secret: boolean): unknown {
  if (typeof value === 'string') return secret ? (value === '' ? '' : MASK) : text(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return MASK;
  if (Array.isArray(value)) return value.map((v) => walk(v, text, depth + 1, secret));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = walk(v, text, depth + 1, secret || isSensitiveKey(k));
  return out;
}

/** Deep-masks a JSON-like value. Returns a new value; the input is not changed. */
export function maskData(value: unknown): unknown {
  return walk(value, maskText, 0, false);
}

/** Masks a JSON text; text that is not JSON is masked as plain text. */
export function maskJsonText(text: string): string {
  try {
    return JSON.stringify(maskData(JSON.parse(text)));
  } catch {
    // Not JSON: fall back to substring masking, which is safe for any text.
    return maskText(text);
  }
}

/**
 * A redactor that also knows the exact secret values in play. `secrets` is
 * called on every use, so a token saved a moment ago is covered at once.
 */
export interface Redactor {
  text(s: string): string;
  deep<T>(value: T): T;
  /**
   * The exact values it masks, right now. Only for handing to a thread that
   * writes on svc's behalf (the ingest worker), so its event rows are masked
   * the same way; never for output of any kind.
   */
  secrets(): string[];
}

const MIN_SECRET_LENGTH = 6;

/**
 * The values worth matching: set, and long enough not to mask ordinary words;
 * longest first, so that a secret holding another is masked whole.
 */
function usableSecrets(all: Iterable<string | null | undefined>): string[] {
  const out: string[] = [];
  for (const s of all) if (s && s.length >= MIN_SECRET_LENGTH && !out.includes(s)) out.push(s);
  return out.sort((a, b) => b.length - a.length);
}

function maskWith(s: string, secrets: readonly string[]): string {
  let out = maskText(s);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

export function createRedactor(secrets: () => Iterable<string | null | undefined>): Redactor {
  // The secrets are read once per call, not once per string of a deep walk.
  const text = (s: string): string => maskWith(s, usableSecrets(secrets()));
  const deep = (value: unknown): unknown => {
    const list = usableSecrets(secrets());
    return walk(value, (s) => maskWith(s, list), 0, false);
  };
  return { text, deep: <T>(v: T) => deep(v) as T, secrets: () => usableSecrets(secrets()) };
}

/** Strips the value of an `access_token` query parameter from a URL for logs. */
export function stripAccessToken(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, `$1${MASK}`);
}

/**
 * A redactor whose knowledge of exact secrets arrives later: the logger is
 * created before settings are read, and forwards to the full redactor once
 * set(). Until then it masks credential-shaped text only.
 */
export function createLateRedactor(): Redactor & { set(r: Redactor): void } {
  let inner: Redactor = createRedactor(() => []);
  return {
    text: (s) => inner.text(s),
    deep: (v) => inner.deep(v),
    secrets: () => inner.secrets(),
    set: (r) => {
      inner = r;
    },
  };
}
