// Edits the gateway's `.env` (provider keys, OPENCLAW_GATEWAY_TOKEN). Users
// keep comments and their own variables there, so an edit touches only the
// lines of the names it sets: every other line comes back byte for byte.
// The file holds secrets: written atomically, mode 0600, under `.env.lock`
// so that two writers never lose each other's change. Names are looked up
// as own keys only (`changes` may be any record, a null-prototype one too).
import { readFileSync } from 'node:fs';
import { withFileLock } from '../file-lock.ts';
import { isMissingFile, writeFileAtomic } from '../fs-safe.ts';
import { gatewayPaths } from '../paths.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The name a dotenv line assigns, read the way `parseDotenv` reads it. */
const ASSIGNED_NAME = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=/;
/** Values written bare: no spaces, quotes, `#` or `$`, so every dotenv reader takes them literally. */
const BARE_VALUE = /^[A-Za-z0-9_./:@+=,%~-]*$/;

/** A value as a dotenv right-hand side; throws (naming the variable, never the value) when none is safe. */
export function formatEnvValue(name: string, value: string): string {
  if (BARE_VALUE.test(value)) return value;
  if (/[\r\n]/.test(value)) throw new Error(`the value for ${name} holds a line break and cannot go in a dotenv file`);
  // Single quotes are literal in dotenv; double quotes would expand \n.
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"') && !value.includes('\\')) return `"${value}"`;
  throw new Error(`the value for ${name} mixes quote characters and cannot go in a dotenv file`);
}

/**
 * The new text of a dotenv file after setting (string) or removing (null)
 * each name in `changes`. The first line assigning a name is replaced in
 * place; later lines assigning the same name are dropped (the last one would
 * win otherwise); names not present are appended. Pure, for property tests.
 */
export function applyEnvChanges(text: string, changes: Readonly<Record<string, string | null>>): string {
  for (const name of Object.keys(changes)) {
    if (!ENV_NAME.test(name)) throw new Error(`not an env var name: ${name}`);
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === '' ? [] : text.split(/\r?\n/);
  // split() leaves '' after a final newline; it is restored on join.
  const endsWithNewline = lines.length > 0 && lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  const pending = new Map(Object.entries(changes));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const name = ASSIGNED_NAME.exec(line)?.[1];
    if (name === undefined || !Object.hasOwn(changes, name)) {
      out.push(line);
      continue;
    }
    if (seen.has(name)) continue;
    seen.add(name);
    const value = changes[name];
    if (value !== null && value !== undefined) out.push(`${name}=${formatEnvValue(name, value)}`);
    pending.delete(name);
  }
  for (const [name, value] of pending) {
    if (value !== null) out.push(`${name}=${formatEnvValue(name, value)}`);
  }
  if (out.length === 0) return '';
  return out.join(eol) + (endsWithNewline || pending.size > 0 || lines.length === 0 ? eol : '');
}

/** The `.env` text; '' when there is none yet. Other read errors propagate: an edit must not start from a guess. */
function readEnvText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissingFile(err)) return '';
    throw err;
  }
}

/** Sets (string) or removes (null) variables in `<stateDir>/.env`, under its lock. Writes only when something changes. */
export function updateGatewayEnv(stateDir: string, changes: Readonly<Record<string, string | null>>): void {
  const file = gatewayPaths(stateDir).envFile;
  withFileLock(file, () => {
    const before = readEnvText(file);
    const after = applyEnvChanges(before, changes);
    if (after !== before) writeFileAtomic(file, after);
  });
}
