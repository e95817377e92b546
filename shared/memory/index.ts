// The memory store: what the rest of svc uses.
export { createMemoryStore, clampLimit, type MemoryStore, type MemoryStoreDeps } from './store.ts';
export { memoryStoreFor } from './shared-store.ts';
export { createEmbedder, cosine, EMBED_TIMEOUT_MS, type Embedder, type EmbedderOptions } from './embeddings.ts';
export { buildFtsQuery, queryTerms } from './fts-query.ts';
export { BINDING_KEYS, inScope, readScope, saveScope, sessionScope, type ScopeResult, type SessionScope } from './scope.ts';
export { ContentSchema, KindSchema, MemoryInputSchema, TagSchema, TagsSchema, TitleSchema, type MemoryInput } from './schemas.ts';
export { teamDigest } from './team-digest.ts';
export {
  MEMORY_LIMITS,
  SCOPE_KEYS,
  type BrowsePage,
  type Memory,
  type MemoryScope,
  type SearchHit,
  type SearchMode,
} from './types.ts';
