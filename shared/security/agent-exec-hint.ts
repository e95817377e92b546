// The start-up hint of issue 15 #6: with the access gate off, any program on
// this machine can call svc's API, resolve approvals included, and a gateway
// agent with the `exec` tool is such a program. When the gate is off and the
// gateway's openclaw.json leaves exec on for some agent, svc prints one line
// recommending STUDIO_ACCESS_TOKEN.
//
// How exec is read from openclaw.json (OpenClaw's tool policy; it is on by
// default, so only an explicit switch turns it off):
//  - `tools.exec.security: "deny"` turns it off;
//  - `tools.deny` naming `exec`, `group:runtime` or a matching `*` pattern
//    turns it off (deny wins);
//  - `tools.profile` `minimal` or `messaging` leaves it out unless
//    `tools.allow`/`tools.alsoAllow` names it back; `coding`, `full` and no
//    profile include it.
// Per agent (`agents.entries.<id>.tools`, legacy `agents.list[].tools`) the
// agent's own profile, allow and exec settings replace the global ones and
// its deny adds to the global deny. The answer is "on" when any agent has
// exec; the implicit `main` agent (when not listed) follows the globals.
// The reading errs towards "on": an allow list does not count as removing
// exec (the gateway ignores one that names only unknown tools), and a
// sandboxed exec still counts. A false alarm costs one log line.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

const EXEC_NAMES = ['exec', 'group:runtime'];
const NO_EXEC_PROFILES = new Set(['minimal', 'messaging']);

/** Whether one of a policy list's entries (case-insensitive, `*` wildcards) names exec. */
function namesExec(list: string[]): boolean {
  return list.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry.includes('*')) return EXEC_NAMES.includes(entry);
    const re = new RegExp(`^${entry.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    return EXEC_NAMES.some((n) => re.test(n));
  });
}

interface ToolsPolicy {
  profile: unknown;
  allow: string[];
  deny: string[];
  execSecurity: unknown;
}

const policyOf = (tools: unknown): ToolsPolicy => {
  const t = isObj(tools) ? tools : {};
  return {
    profile: t.profile,
    allow: [...strings(t.allow), ...strings(t.alsoAllow)],
    deny: strings(t.deny),
    execSecurity: isObj(t.exec) ? t.exec.security : undefined,
  };
};

function execOn(p: ToolsPolicy): boolean {
  if (p.execSecurity === 'deny') return false;
  if (namesExec(p.deny)) return false;
  if (typeof p.profile === 'string' && NO_EXEC_PROFILES.has(p.profile.toLowerCase())) return namesExec(p.allow);
  return true;
}

/** The listed agents' tool blocks: `agents.entries.<id>.tools` and legacy `agents.list[].tools`, by agent id. */
function agentTools(agents: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isObj(agents)) return out;
  if (isObj(agents.entries)) for (const [id, a] of Object.entries(agents.entries)) out.set(id, isObj(a) ? a.tools : undefined);
  if (Array.isArray(agents.list)) {
    for (const a of agents.list) if (isObj(a) && typeof a.id === 'string' && !out.has(a.id)) out.set(a.id, a.tools);
  }
  return out;
}

/** Whether the gateway config leaves the exec tool on for at least one agent; false without a config. */
export function gatewayExecEnabled(config: unknown): boolean {
  if (!isObj(config)) return false;
  const global = policyOf(config.tools);
  const agents = agentTools(config.agents);
  if (!agents.has('main') && execOn(global)) return true;
  for (const tools of agents.values()) {
    const own = policyOf(tools);
    const merged: ToolsPolicy = {
      profile: own.profile ?? global.profile,
      allow: own.allow.length > 0 ? own.allow : global.allow,
      deny: [...global.deny, ...own.deny],
      execSecurity: own.execSecurity ?? global.execSecurity,
    };
    if (execOn(merged)) return true;
  }
  return false;
}

export const AGENT_EXEC_HINT =
  'svc: the access gate is off and the gateway gives agents a shell (exec): an agent can call this API, approvals included. ' +
  'Set STUDIO_ACCESS_TOKEN to turn the gate on.';

/** The one start-up line, or null when the gate is on or no agent has exec. */
export function agentExecHint(input: { gateOn: boolean; gatewayConfig: unknown }): string | null {
  return !input.gateOn && gatewayExecEnabled(input.gatewayConfig) ? AGENT_EXEC_HINT : null;
}
