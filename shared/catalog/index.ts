// The marketplace catalog: formats, sources, merge and the cached service.
export { createCatalog, builtinDir, CATALOG_MESSAGES, CATALOG_TTL, type Catalog, type CatalogOptions } from './catalog.ts';
export { sha256Hex, digestMatches } from './digest.ts';
export { displayUrl, REMOTE_BUNDLE_CONCURRENCY } from './remote-source.ts';
export { INDEX_FILE } from './local-source.ts';
export {
  BUNDLE_FORMAT,
  BundleSchema,
  CATALOG_LIMITS,
  INDEX_FORMAT,
  IndexSchema,
  SYNTHESIZED_DOCUMENTS,
  type AgentTemplate,
  type CatalogBundle,
  type CatalogIndexFile,
  type PackEntry,
  type TeamTemplate,
} from './schemas.ts';
export type { AgentDetail, AgentRow, CatalogView, PackRow, SourceKind, SourceStatus, TeamDetail, TeamRow } from './types.ts';
