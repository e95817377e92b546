// Merging sources into one catalog. Sources are taken in order (built-in,
// local, remote) and the first to provide an id keeps it:
//  - a pack whose id an earlier source already served is refused whole and
//    reported on its source, so a pack id always names one bundle;
//  - an agent or team id an earlier pack already serves is dropped from the
//    later pack (listed in that pack row's `shadowed`), and so is any later
//    team whose members include a dropped agent, so that every served team's
//    members are agents of its own pack.
// The built-in pack therefore cannot be overridden by a local or remote one.
import type { AgentTemplate, TeamTemplate } from './schemas.ts';
import type { AgentRow, CatalogSnapshot, LoadedPack, PackRow, SourceResult, SourceStatus, TeamRow } from './types.ts';

function agentRow(a: AgentTemplate, pack: string): AgentRow {
  return {
    id: a.id,
    name: a.name,
    role: a.role,
    description: a.description,
    model: a.model ?? null,
    runtime: a.runtime ?? null,
    tags: a.tags,
    pack,
    documentNames: Object.keys(a.documents),
  };
}

function teamRow(t: TeamTemplate, pack: string): TeamRow {
  return { id: t.id, name: t.name, icon: t.icon, color: t.color, description: t.description, members: t.members, lead: t.lead, tags: t.tags, pack };
}

function packRow(p: LoadedPack, agentCount: number, teamCount: number, shadowed: string[]): PackRow {
  const { entry } = p;
  return {
    id: entry.id,
    name: entry.name,
    description: entry.description,
    version: entry.version,
    author: entry.author ?? null,
    source: p.source,
    offline: p.source === 'builtin',
    sha256: entry.sha256,
    agentCount,
    teamCount,
    shadowed,
  };
}

export function mergeSources(results: readonly SourceResult[]): CatalogSnapshot {
  const packs: PackRow[] = [];
  const agentById = new Map<string, { row: AgentRow; template: AgentTemplate }>();
  const teamById = new Map<string, { row: TeamRow; template: TeamTemplate }>();
  const packSource = new Map<string, string>();
  const sources: SourceStatus[] = [];

  for (const result of results) {
    const status: SourceStatus = { ...result.status, packs: [], refused: [...result.status.refused] };
    for (const p of result.packs) {
      const id = p.entry.id;
      const owner = packSource.get(id);
      if (owner !== undefined) {
        status.refused.push({ pack: id, error: `pack id already served by the ${owner} source` });
        continue;
      }
      packSource.set(id, result.status.kind);
      status.packs.push(id);
      const shadowed: string[] = [];
      const dropped = new Set<string>();
      let agentCount = 0;
      let teamCount = 0;
      for (const a of p.bundle.agents) {
        if (agentById.has(a.id)) {
          shadowed.push(a.id);
          dropped.add(a.id);
          continue;
        }
        agentById.set(a.id, { row: agentRow(a, id), template: a });
        agentCount++;
      }
      for (const t of p.bundle.teams) {
        if (teamById.has(t.id) || t.members.some((m) => dropped.has(m))) {
          shadowed.push(t.id);
          continue;
        }
        teamById.set(t.id, { row: teamRow(t, id), template: t });
        teamCount++;
      }
      packs.push(packRow(p, agentCount, teamCount, shadowed));
    }
    // Recounted here: the merge can refuse packs the source itself loaded fine.
    if (status.refused.length > 0) {
      status.ok = false;
      status.error = `${status.refused.length} of ${status.packs.length + status.refused.length} packs refused`;
    }
    sources.push(status);
  }

  return {
    packs,
    agents: [...agentById.values()].map((v) => v.row),
    teams: [...teamById.values()].map((v) => v.row),
    sources,
    agentById,
    teamById,
  };
}
