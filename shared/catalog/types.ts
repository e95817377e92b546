// What the catalog serves (svc's design; field names listed in README
// "Marketplace catalog"). Rows are for browsing; details add the content.
import type { AgentTemplate, CatalogBundle, PackEntry, TeamTemplate } from './schemas.ts';

/** Where packs come from, in merge order: an earlier source wins an id collision. */
export type SourceKind = 'builtin' | 'local' | 'remote';

export interface PackProblem {
  pack: string;
  error: string;
}

export interface SourceStatus {
  kind: SourceKind;
  /** A folder path, `builtin`, or the index URL without credentials. */
  location: string;
  /** False when the index could not be read or any of its packs was refused. */
  ok: boolean;
  /** Why the index could not be read, or how many packs were refused; null when ok. */
  error: string | null;
  /** Ids of the packs this source served. */
  packs: string[];
  /** Packs listed by the index but not served (bad digest, invalid bundle, duplicate id). */
  refused: PackProblem[];
  /** Epoch ms of the read this status describes (cached reads keep their time). */
  checkedAt: number;
}

export interface LoadedPack {
  entry: PackEntry;
  bundle: CatalogBundle;
  source: SourceKind;
}

export interface SourceResult {
  status: SourceStatus;
  packs: LoadedPack[];
}

export interface PackRow {
  id: string;
  name: string;
  description: string;
  version: string;
  author: string | null;
  source: SourceKind;
  /** True for the built-in pack only: it ships with svc and needs no network. */
  offline: boolean;
  sha256: string;
  agentCount: number;
  teamCount: number;
  /** Agent and team ids of this pack not served because an earlier pack already has them. */
  shadowed: string[];
}

export interface AgentRow {
  id: string;
  name: string;
  role: string;
  description: string;
  model: string | null;
  runtime: string | null;
  tags: string[];
  pack: string;
  /** File names of the document set (the content is in the agent detail). */
  documentNames: string[];
}

export interface TeamRow {
  id: string;
  name: string;
  icon: string;
  color: string;
  description: string;
  members: string[];
  lead: string;
  tags: string[];
  pack: string;
}

export interface CatalogView {
  packs: PackRow[];
  agents: AgentRow[];
  teams: TeamRow[];
  sources: SourceStatus[];
}

export interface AgentDetail extends AgentRow {
  documents: Record<string, string>;
}

export interface TeamDetail extends TeamRow {
  rules: string;
  brief: string;
}

/** The merged catalog with its lookups, rebuilt only when a source's result changes. */
export interface CatalogSnapshot extends CatalogView {
  agentById: ReadonlyMap<string, { row: AgentRow; template: AgentTemplate }>;
  teamById: ReadonlyMap<string, { row: TeamRow; template: TeamTemplate }>;
}
