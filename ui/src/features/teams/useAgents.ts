// The live (non-archived) agents, from GET /api/agents (docs/api.md
// "Agents"): the names shown for assignees and members, and the agents a
// team can add.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client.ts';
import type { Agent } from '../../api/types.ts';

export const agentsKey = ['agents'] as const;

export function useAgents() {
  const q = useQuery({
    queryKey: agentsKey,
    queryFn: ({ signal }) => api<{ agents: Agent[] }>('/api/agents', { signal }).then((r) => r.agents),
  });
  const names = useMemo(() => new Map((q.data ?? []).map((a) => [a.id, a.name])), [q.data]);
  return { ...q, names };
}
