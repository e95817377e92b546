// The agent row as the API shows it. The spec fixes only what team
// assignment needs (team id, status `idle`, gateway id equal to the agent id);
// the rest is svc's design, documented in the README.
export interface Agent {
  id: string;
  name: string;
  teamId: string | null;
  /** Run state as the orchestrator last set it: `idle`, `running` or `error`. */
  status: string;
  gatewayId: string | null;
  /** Open set: `gateway`, `native`, `cli-a`, `cli-b`, ... */
  runtime: string;
  model: string | null;
  /** `lead` marks a lead-agent candidate for the effective-lead chain. */
  role: AgentRole;
  isArchived: 0 | 1;
  createdAt: number;
  updatedAt: number;
}

export const AGENT_ROLES = ['member', 'lead'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export const DEFAULT_RUNTIME = 'gateway';

export const AGENT_COLUMNS_SQL = `id, name, team_id AS teamId, status, gateway_id AS gatewayId, runtime, model, role,
  is_archived AS isArchived, created_at AS createdAt, updated_at AS updatedAt`;
