// Rotating and revoking one agent's model token (issue 31 item 6). Both end
// every live token of the agent at once (the endpoint checks the token on
// each call, so the next call with it is a 401) and drop its value from the
// vault. A rotation moves the agent to its next token name (token-names.ts):
// the next sync mints a token under it, writes it to the gateway's .env and
// points the agent's provider entry at it; the gateway takes a new name
// without a restart, never a new value under an old one. A revocation mints
// nothing until the agent is rotated: its calls are refused meanwhile.
import { tokenEnvVar, tokenStateOf, type TokenStateStore } from './token-names.ts';

export interface TokenActionDeps {
  tokenStates: TokenStateStore;
  vault: { get(name: string): string | null; delete(name: string): boolean };
  /** Ends every live model token of the agent; how many were live. */
  revokeAll(agentId: string): number;
}

function endCurrent(deps: TokenActionDeps, agentId: string) {
  const state = tokenStateOf(deps.tokenStates.read(), agentId);
  deps.revokeAll(agentId);
  deps.vault.delete(tokenEnvVar(agentId, state.generation));
  return state;
}

/** Ends the agent's token and moves it to the next token name; the caller then syncs (which mints under the new name). */
export function rotateModelToken(deps: TokenActionDeps, agentId: string): { envName: string } {
  const state = endCurrent(deps, agentId);
  const next = { generation: state.generation + 1, revoked: false };
  deps.tokenStates.set(agentId, next);
  return { envName: tokenEnvVar(agentId, next.generation) };
}

/** Ends the agent's token; no other is minted until it is rotated. */
export function revokeModelToken(deps: TokenActionDeps, agentId: string): void {
  const state = endCurrent(deps, agentId);
  deps.tokenStates.set(agentId, { generation: state.generation, revoked: true });
}
