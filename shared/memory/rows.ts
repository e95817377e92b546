// The memories table's row and its mapping to Memory; one SELECT list for every read.
import type { Memory } from './types.ts';

export interface MemoryRow {
  seq: number;
  id: string;
  team_id: string | null;
  agent_id: string | null;
  tenant_id: string | null;
  kind: string;
  title: string;
  tags: string;
  content: string;
  created_at: number;
  updated_at: number;
  embedded: number;
}

/** Columns of `memories m` left-joined to `memory_vectors v`. */
export const MEMORY_COLUMNS = `m.seq, m.id, m.team_id, m.agent_id, m.tenant_id, m.kind, m.title, m.tags, m.content,
  m.created_at, m.updated_at, (v.memory_seq IS NOT NULL) AS embedded`;

function parseTags(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    // Written only by this store as a JSON array; a damaged value reads as no tags rather than failing the read.
    return [];
  }
}

export function toMemory(r: MemoryRow): Memory {
  return {
    id: r.id,
    seq: r.seq,
    teamId: r.team_id,
    agentId: r.agent_id,
    tenantId: r.tenant_id,
    kind: r.kind,
    title: r.title,
    tags: parseTags(r.tags),
    content: r.content,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    embedded: r.embedded === 1,
  };
}
