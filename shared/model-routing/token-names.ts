// The .env name of each agent's model token, and what svc keeps per agent to
// rotate and revoke it (issue 31 items 6 and 10). The name must be injective:
// `x-y` and `x_y` once both became `SVC_MODEL_TOKEN_X_Y`, and one agent's
// token locked the other out. It must also change when the token does: the
// gateway keeps every .env value it has read until it restarts, so a new
// value under a name it has seen is never used.
//
//   plain    id of lower-case letters and digits in hyphen-joined words
//            (`main`, `team-lead`): the name svc always gave it,
//            `SVC_MODEL_TOKEN_TEAM_LEAD` (no leading, trailing or double `_`).
//   encoded  any other id: `SVC_MODEL_TOKEN__` then each character, `a-z0-9`
//            upper-cased, any other as `_` plus two hex digits per UTF-8 byte
//            (`x_y` → `SVC_MODEL_TOKEN__X_5FY`, `Bob` → `SVC_MODEL_TOKEN___42OB`).
//            It starts with `_`, which no plain name does, and reads back one way.
//   rotated  generation n > 1: the name above plus `__R<n>`. Neither form
//            holds `__R` anywhere else (an encoded `_` is always followed by
//            a hex digit), so the generation reads back too.
import { z } from 'zod';
import { readJsonSetting, type SettingsTable } from '../db/settings-table.ts';

export const TOKEN_ENV_PREFIX = 'SVC_MODEL_TOKEN_';
export const TOKEN_STATE_KEY = 'model-routing:tokens';

const PLAIN_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function encodeId(agentId: string): string {
  let out = '_';
  for (const ch of agentId) {
    if (/^[a-z0-9]$/.test(ch)) out += ch.toUpperCase();
    else for (const byte of Buffer.from(ch, 'utf8')) out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `SVC_MODEL_TOKEN_<ID>` of an agent's token at `generation` (1 until the first rotation); injective in both. */
export function tokenEnvVar(agentId: string, generation = 1): string {
  const id = PLAIN_ID.test(agentId) ? agentId.toUpperCase().replace(/-/g, '_') : encodeId(agentId);
  return `${TOKEN_ENV_PREFIX}${id}${generation > 1 ? `__R${generation}` : ''}`;
}

const AgentTokenState = z.object({
  /** Bumped by each rotation: the token's .env name changes with it. */
  generation: z.number().int().min(1).default(1),
  /** Revoked by the operator: no token is minted for the agent until it is rotated. */
  revoked: z.boolean().default(false),
});
export type AgentTokenState = z.infer<typeof AgentTokenState>;
const TokenStateSchema = z.record(z.string(), AgentTokenState);
export type TokenStates = Readonly<Record<string, AgentTokenState>>;

export const INITIAL_TOKEN_STATE: AgentTokenState = Object.freeze({ generation: 1, revoked: false });

export const tokenStateOf = (states: TokenStates, agentId: string): AgentTokenState =>
  Object.hasOwn(states, agentId) ? (states[agentId] as AgentTokenState) : INITIAL_TOKEN_STATE;

export interface TokenStateStore {
  read(): TokenStates;
  set(agentId: string, state: AgentTokenState): void;
}

export function createTokenStateStore(settings: Pick<SettingsTable, 'get' | 'set'>, log: { warn(obj: object, msg: string): void }): TokenStateStore {
  const read = (): TokenStates =>
    readJsonSetting(settings, TOKEN_STATE_KEY, TokenStateSchema, () => ({}), log, { name: 'the model-token state', fallback: 'every agent is on its first token name' });
  return {
    read,
    set: (agentId, state) => void settings.set(TOKEN_STATE_KEY, JSON.stringify({ ...read(), [agentId]: state })),
  };
}
