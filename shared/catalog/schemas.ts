// The marketplace catalog's two file formats (spec "Smaller resources" →
// "Marketplace catalog"; the format itself is svc's design, see README):
//  - an index (JSON) listing packs, each naming a bundle and its sha256;
//  - a bundle (JSON) holding agent templates and team templates.
// Every index and bundle is untrusted input, the built-in one included: all
// of them pass through these schemas, and anything they refuse is never served.
import { z } from 'zod';

export const INDEX_FORMAT = 'svc-catalog-index@1';
export const BUNDLE_FORMAT = 'svc-catalog-bundle@1';

export const CATALOG_LIMITS = {
  indexBytes: 1024 * 1024,
  bundleBytes: 5 * 1024 * 1024,
  fetchTimeoutMs: 5_000,
  packsPerIndex: 100,
  agentsPerBundle: 200,
  teamsPerBundle: 100,
  documentsPerAgent: 16,
  documentChars: 64 * 1024,
  membersPerTeam: 32,
  /** The spec's cap on team rules text (PUT team-rules), so a template's rules always fit. */
  rulesChars: 4000,
  briefChars: 8000,
} as const;

/**
 * Documents svc writes itself when it creates an agent from a template; a
 * bundle that ships one is refused whole, so an author learns of it instead
 * of having it silently dropped.
 */
export const SYNTHESIZED_DOCUMENTS = ['IDENTITY.md', 'USER.md'] as const;
const SYNTHESIZED = new Set<string>(SYNTHESIZED_DOCUMENTS.map((d) => d.toLowerCase()));

/** Ids are slugs: they fit a URL path segment and an svc agent id unchanged. */
export const CatalogIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'id must be a lowercase slug (a-z, 0-9, -), at most 64 characters');

const Text = (max: number) => z.string().trim().min(1).max(max);
const Tags = z.array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'tags are lowercase slugs')).max(12).default([]);
const Sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be 64 hex digits').transform((s) => s.toLowerCase());

export const PackEntrySchema = z.object({
  id: CatalogIdSchema,
  name: Text(80),
  description: Text(500),
  version: z.string().regex(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,31}$/, 'version must look like 1.2.0'),
  /** Relative to the index (path or URL), or absolute; the source decides which forms it accepts. */
  bundle: Text(2048),
  sha256: Sha256,
  author: Text(120).optional(),
});
export type PackEntry = z.infer<typeof PackEntrySchema>;

export const IndexSchema = z.object({
  format: z.literal(INDEX_FORMAT),
  packs: z
    .array(PackEntrySchema)
    .max(CATALOG_LIMITS.packsPerIndex)
    .refine((packs) => new Set(packs.map((p) => p.id)).size === packs.length, 'pack ids must be unique within an index'),
});
export type CatalogIndexFile = z.infer<typeof IndexSchema>;

const DOCUMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}\.md$/;

// Key checks live here rather than in the record's key schema, whose own
// failure message ("Invalid key in record") would not say what is wrong.
const Documents = z.record(z.string(), z.string().max(CATALOG_LIMITS.documentChars)).superRefine((docs, ctx) => {
  const names = Object.keys(docs);
  if (names.length > CATALOG_LIMITS.documentsPerAgent) ctx.addIssue({ code: 'custom', message: `at most ${CATALOG_LIMITS.documentsPerAgent} documents per agent` });
  for (const name of names) {
    if (!DOCUMENT_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'document names are plain Markdown file names such as AGENTS.md' });
    else if (SYNTHESIZED.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is synthesized by svc when it creates an agent and must not ship in a bundle` });
  }
  if (!docs['AGENTS.md']?.trim()) ctx.addIssue({ code: 'custom', message: 'every agent template needs a non-empty AGENTS.md' });
});

export const AgentTemplateSchema = z.object({
  id: CatalogIdSchema,
  name: Text(80),
  /** A job title ("Code reviewer"); whether it leads a team is the team template's `lead`. */
  role: Text(80),
  description: Text(500),
  /** A suggestion only; the user picks the model when creating the agent. */
  model: Text(200).optional(),
  runtime: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/).optional(),
  tags: Tags,
  documents: Documents,
});
export type AgentTemplate = z.infer<typeof AgentTemplateSchema>;

export const TeamTemplateSchema = z
  .object({
    id: CatalogIdSchema,
    name: Text(80),
    icon: z.string().min(1).max(16).regex(/\p{Extended_Pictographic}/u, 'icon must be an emoji'),
    color: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'color must be a hex colour such as #3b82f6'),
    description: Text(500),
    members: z.array(CatalogIdSchema).min(1).max(CATALOG_LIMITS.membersPerTeam),
    lead: CatalogIdSchema,
    rules: z.string().max(CATALOG_LIMITS.rulesChars).default(''),
    brief: z.string().max(CATALOG_LIMITS.briefChars).default(''),
    tags: Tags,
  })
  .refine((t) => new Set(t.members).size === t.members.length, 'team members must be unique')
  .refine((t) => t.members.includes(t.lead), 'the lead must be one of the members');
export type TeamTemplate = z.infer<typeof TeamTemplateSchema>;

export const BundleSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    /** Must equal the index entry's id: a bundle cannot be passed off as another pack. */
    pack: CatalogIdSchema,
    agents: z.array(AgentTemplateSchema).max(CATALOG_LIMITS.agentsPerBundle).default([]),
    teams: z.array(TeamTemplateSchema).max(CATALOG_LIMITS.teamsPerBundle).default([]),
  })
  .superRefine((b, ctx) => {
    const agentIds = new Set(b.agents.map((a) => a.id));
    if (agentIds.size !== b.agents.length) ctx.addIssue({ code: 'custom', message: 'agent ids must be unique within a bundle', path: ['agents'] });
    if (new Set(b.teams.map((t) => t.id)).size !== b.teams.length) ctx.addIssue({ code: 'custom', message: 'team ids must be unique within a bundle', path: ['teams'] });
    // A team names agents of its own bundle only, so its member rows never depend on another pack.
    b.teams.forEach((t, i) => {
      const missing = t.members.filter((m) => !agentIds.has(m));
      if (missing.length > 0) ctx.addIssue({ code: 'custom', message: `team ${t.id} names agents not in this bundle: ${missing.join(', ')}`, path: ['teams', i, 'members'] });
    });
  });
export type CatalogBundle = z.infer<typeof BundleSchema>;

/** The first problem of a failed parse as one line: `path: message`. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
