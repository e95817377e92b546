// Scope rules (spec "Session binding"). A session bound by any of
// scopeTeamId, scopeAgentId, scopeTenantId sees only rows whose tags equal
// every bound value, and every save is tagged with exactly its binding. Tool
// arguments cannot widen that:
//  - an argument that names a different value for a bound key is refused;
//  - on a key the binding leaves open, an argument may narrow a read, but a
//    save refuses it (tags come from the binding alone, so a bound session
//    cannot claim another agent's or tenant's identity);
//  - an argument equal to the binding is accepted and changes nothing.
// An unbound session takes its scope from the arguments: they tag saves and
// filter reads; with none it saves untagged rows and reads everything.
import { MEMORY_LIMITS, SCOPE_KEYS, type MemoryScope, type ScopeKey } from './types.ts';

/** Binding parameter name per scope key. */
export const BINDING_KEYS: Readonly<Record<ScopeKey, string>> = {
  teamId: 'scopeTeamId',
  agentId: 'scopeAgentId',
  tenantId: 'scopeTenantId',
};

export interface SessionScope {
  bound: boolean;
  /** The bound values (empty when unbound). */
  scope: MemoryScope;
}

export type ScopeResult = { ok: true; scope: MemoryScope } | { ok: false; error: string };

const clean = (v: string | undefined): string | undefined => {
  const t = v?.trim();
  return t ? t.slice(0, MEMORY_LIMITS.scopeIdMax) : undefined;
};

/** The session's scope from its binding (attach URL query or stdio environment); blank values are absent. */
export function sessionScope(binding: Readonly<Record<string, string | undefined>>): SessionScope {
  const scope: MemoryScope = {};
  for (const k of SCOPE_KEYS) {
    const v = clean(binding[BINDING_KEYS[k]]);
    if (v !== undefined) scope[k] = v;
  }
  return { bound: Object.keys(scope).length > 0, scope };
}

function argScope(args: MemoryScope): MemoryScope {
  const out: MemoryScope = {};
  for (const k of SCOPE_KEYS) {
    const v = clean(args[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** What a read (search, browse) may see, given the session and the tool's scope arguments. */
export function readScope(session: SessionScope, args: MemoryScope): ScopeResult {
  const asked = argScope(args);
  if (!session.bound) return { ok: true, scope: asked };
  const scope: MemoryScope = { ...session.scope };
  for (const k of SCOPE_KEYS) {
    const v = asked[k];
    if (v === undefined) continue;
    const bound = session.scope[k];
    if (bound !== undefined && bound !== v) return { ok: false, error: refusal(k) };
    scope[k] = v;
  }
  return { ok: true, scope };
}

/** The tags a save gets, given the session and the tool's scope arguments. */
export function saveScope(session: SessionScope, args: MemoryScope): ScopeResult {
  const asked = argScope(args);
  if (!session.bound) return { ok: true, scope: asked };
  for (const k of SCOPE_KEYS) {
    const v = asked[k];
    if (v !== undefined && session.scope[k] !== v) return { ok: false, error: refusal(k) };
  }
  return { ok: true, scope: { ...session.scope } };
}

const refusal = (k: ScopeKey) => `this session is bound to its memory scope: ${k} cannot be set to another value`;

/** Whether a row's tags lie within `scope` (every constrained key equal). */
export function inScope(row: { teamId: string | null; agentId: string | null; tenantId: string | null }, scope: MemoryScope): boolean {
  return SCOPE_KEYS.every((k) => scope[k] === undefined || row[k] === scope[k]);
}

/** A SQL condition on the memories table (alias `m`) for `scope`, with its parameters. */
export function scopeSql(scope: MemoryScope): { sql: string; params: string[] } {
  const cols: Record<ScopeKey, string> = { teamId: 'm.team_id', agentId: 'm.agent_id', tenantId: 'm.tenant_id' };
  const parts: string[] = [];
  const params: string[] = [];
  for (const k of SCOPE_KEYS) {
    const v = scope[k];
    if (v === undefined) continue;
    parts.push(`${cols[k]} = ?`);
    params.push(v);
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : '1', params };
}
