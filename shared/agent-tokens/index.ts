// Agent tokens: what the rest of svc imports.
export {
  AGENT_TOKEN_BYTES,
  AGENT_TOKEN_ID_MAX,
  AGENT_TOKEN_PURPOSES,
  MintAgentTokenInput,
  createAgentTokenStore,
  type AgentTokenBinding,
  type AgentTokenPurpose,
  type AgentTokenStore,
  type MintAgentToken,
} from './store.ts';
