// The memory store's shapes and bounds. The bounds are the store's (the
// migration's CHECK constraints repeat them) and the MCP schemas reuse them.

export const MEMORY_LIMITS = {
  contentMax: 16_000,
  titleMax: 200,
  kindMax: 40,
  tagMax: 40,
  tagsMax: 16,
  scopeIdMax: 200,
  queryMax: 1_000,
  /** search and browse: 1..limitMax, default limitDefault. */
  limitMax: 50,
  limitDefault: 10,
} as const;

/** Who a row belongs to, or what a reader may see: an absent key is unconstrained. */
export interface MemoryScope {
  teamId?: string;
  agentId?: string;
  tenantId?: string;
}

export const SCOPE_KEYS = ['teamId', 'agentId', 'tenantId'] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];

export interface Memory {
  id: string;
  /** The browse cursor: rows are newest first by seq. */
  seq: number;
  teamId: string | null;
  agentId: string | null;
  tenantId: string | null;
  kind: string;
  title: string;
  tags: string[];
  content: string;
  createdAt: number;
  updatedAt: number;
  /** Whether an embedding was stored with it. */
  embedded: boolean;
}

export interface SearchHit {
  memory: Memory;
  /** Content around the matched terms, the terms in [brackets]. */
  snippet: string;
  /** Higher is better; comparable only within one result list. */
  score: number;
  /** Which index found it. */
  match: 'fts' | 'vector' | 'both';
}

export interface BrowsePage {
  memories: Memory[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextCursor: number | null;
}

export type SearchMode = 'fts' | 'hybrid';
