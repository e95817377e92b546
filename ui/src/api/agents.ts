// Agents svc knows (GET /api/agents; docs/api.md "Agents"): the live ones
// (the names shown for assignees and members, the agents a team can add) and
// every one, archived included (the team chat's roster and lead lookup). One
// key root, ['agents']: a write that moves agents (teams.ts) reads both again.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from './client.ts';
import type { Agent } from './types.ts';

export const agentKeys = {
  all: ['agents'] as const,
  list: (includeArchived: boolean) => ['agents', 'list', { includeArchived }] as const,
};

/** The live (non-archived) agents, and their names by id. */
export function useAgents() {
  const q = useQuery({
    queryKey: agentKeys.list(false),
    queryFn: ({ signal }) => api<{ agents: Agent[] }>('/api/agents', { signal }).then((r) => r.agents),
  });
  const names = useMemo(() => new Map((q.data ?? []).map((a) => [a.id, a.name])), [q.data]);
  return { ...q, names };
}

/** Every agent, archived included (one read serves the roster and the lead lookup). */
export function useAllAgents({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: agentKeys.list(true),
    queryFn: ({ signal }) => api<{ agents: Agent[] }>('/api/agents?includeArchived=true', { signal }).then((r) => r.agents),
    enabled,
  });
}
