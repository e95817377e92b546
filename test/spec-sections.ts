// The sections of the HTTP contract (the spec, kept outside this repository)
// that tests must cite, copied here so the check needs no file from outside:
// test/unit/spec-coverage.test.ts fails when no test name starts with one of
// them. When the contract gains a route group or svc starts serving one
// listed under UNSERVED, the list changes with it.
//
// A test name cites a section when it starts with the heading (or one of its
// `cite` spellings) followed by ":", " ", "→", "(" or ",": "Teams: ...",
// "Tools broker and MCP → GET /api/tools: ...", "Limits (issue 15 #15): ...".

export interface SpecSection {
  /** The heading as the contract writes it (inside "Smaller resources", the name of the resource's paragraph). */
  heading: string;
  /** Where it sits in the contract. */
  under: 'Endpoints' | 'Smaller resources' | 'Resources and their fields' | 'States and transitions' | 'top level' | 'What the service does';
  /** How test names spell it, when not as the heading (a qualifier dropped, or the group named first). */
  cite?: readonly string[];
}

export interface UnservedSection extends SpecSection {
  /** Why no test can cite it yet. */
  why: string;
  /** Requests svc would answer if it served the section; each must still get the router's 404. */
  probes: ReadonlyArray<{ method: 'GET' | 'POST'; url: string }>;
}

/** The contract's route groups: its `###` headings under "Endpoints". */
export const ROUTE_GROUPS: readonly SpecSection[] = [
  { heading: 'Teams', under: 'Endpoints' },
  { heading: 'System (host and gateway)', under: 'Endpoints', cite: ['System'] },
  { heading: 'Tools broker and MCP', under: 'Endpoints' },
  { heading: 'Settings and health', under: 'Endpoints' },
  { heading: 'Observability', under: 'Endpoints' },
  { heading: 'Governance', under: 'Endpoints' },
  { heading: 'Smaller resources', under: 'Endpoints' },
  { heading: 'Command-line launcher', under: 'Endpoints' },
];

/** The resources of "Smaller resources", each a paragraph of its own in the contract. */
export const SMALLER_RESOURCES: readonly SpecSection[] = [
  { heading: 'Cost records', under: 'Smaller resources', cite: ['Smaller resources → Cost records'] },
  { heading: 'Chat history', under: 'Smaller resources', cite: ['Smaller resources → Chat history'] },
  { heading: 'Graph layout', under: 'Smaller resources', cite: ['Smaller resources → Graph layout'] },
  { heading: 'Personality', under: 'Smaller resources', cite: ['Smaller resources → Personality'] },
  { heading: 'Skills', under: 'Smaller resources', cite: ['Smaller resources → Skills'] },
  { heading: 'Marketplace catalog', under: 'Smaller resources', cite: ['Smaller resources → Marketplace catalog'] },
  { heading: 'Exec settings', under: 'Smaller resources' },
  { heading: 'Standing exec grants', under: 'Smaller resources' },
  { heading: 'Fleet summary', under: 'Smaller resources', cite: ['Smaller resources → Fleet summary'] },
  { heading: 'Lead agent routes', under: 'Smaller resources' },
];

/** Resource, state and behaviour sections that tests prove. */
export const SECTIONS: readonly SpecSection[] = [
  { heading: 'Common conventions', under: 'top level' },
  { heading: 'What the service does', under: 'top level' },
  { heading: 'Process model', under: 'What the service does' },
  { heading: 'Team-scoped settings entries', under: 'Resources and their fields' },
  { heading: 'Onboarding state', under: 'Resources and their fields' },
  { heading: 'Transcript entry (team chat)', under: 'Resources and their fields', cite: ['Transcript entry'] },
  { heading: 'Settings view', under: 'Resources and their fields' },
  { heading: 'Settings file', under: 'Resources and their fields' },
  { heading: 'State directory', under: 'Resources and their fields' },
  { heading: 'Tool approval', under: 'States and transitions' },
  { heading: 'Orchestration event row', under: 'Resources and their fields' },
  { heading: 'Trace metrics', under: 'Resources and their fields' },
  { heading: 'Fleet health (derived, not stored)', under: 'States and transitions', cite: ['Fleet health'] },
  { heading: 'Budget status', under: 'States and transitions', cite: ['Budgets (issue 22, item 6)'] },
  { heading: 'Budget row', under: 'Resources and their fields', cite: ['Budgets (issue 22, item 6)'] },
  { heading: 'Delegation graph', under: 'Resources and their fields' },
  { heading: 'Boot report', under: 'Resources and their fields' },
  { heading: 'Gateway process', under: 'States and transitions' },
  { heading: 'Team chat run effects', under: 'States and transitions' },
  { heading: 'Authentication', under: 'top level' },
  { heading: 'Events', under: 'top level' },
  { heading: 'SSE streams', under: 'top level' },
  { heading: 'Errors', under: 'top level' },
  { heading: 'Limits', under: 'top level' },
  { heading: 'Versioning', under: 'top level' },
];

/** Sections of the contract svc does not serve yet: the coverage test checks they are still unserved. */
export const UNSERVED: readonly UnservedSection[] = [
  {
    heading: 'Capabilities',
    under: 'Endpoints',
    why: 'the capability inventory has not moved into svc yet',
    probes: [{ method: 'GET', url: '/api/capabilities' }, { method: 'POST', url: '/api/capabilities/enable' }],
  },
  {
    heading: 'Capability record',
    under: 'Resources and their fields',
    why: 'served only by the capability routes, which svc does not have yet',
    probes: [{ method: 'GET', url: '/api/capabilities' }],
  },
  {
    heading: 'Connectors',
    under: 'Smaller resources',
    why: 'the contract does not show their routes, and svc has none',
    probes: [{ method: 'GET', url: '/api/connectors' }],
  },
];
