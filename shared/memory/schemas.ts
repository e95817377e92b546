// What a save must look like, checked by the store whoever calls it (the MCP
// tools reuse the pieces for their input schemas).
import { z } from 'zod';
import { MEMORY_LIMITS as L } from './types.ts';

// NUL would cut the text short for SQLite's length() and FTS5; it carries no meaning here.
const noNul = (s: string) => s.replaceAll('\u0000', '');

export const ContentSchema = z
  .string()
  .max(L.contentMax)
  .transform(noNul)
  .refine((s) => s.trim().length > 0, 'content must not be empty');
export const TitleSchema = z.string().max(L.titleMax).transform((s) => noNul(s).trim());
export const KindSchema = z
  .string()
  .trim()
  .min(1)
  .max(L.kindMax)
  .regex(/^[\p{L}\p{N}_.:-]+$/u, 'kind is one word (letters, digits, _ . : -)');
export const TagSchema = z
  .string()
  .trim()
  .min(1)
  .max(L.tagMax)
  .regex(/^[\p{L}\p{N}_.:/-]+$/u, 'a tag is one word (letters, digits, _ . : / -)');
export const TagsSchema = z.array(TagSchema).max(L.tagsMax);

export const MemoryInputSchema = z.object({
  content: ContentSchema,
  title: TitleSchema.optional(),
  kind: KindSchema.optional(),
  tags: TagsSchema.optional(),
});
/** What a caller hands the store's save, before validation. */
export type MemoryInput = z.input<typeof MemoryInputSchema>;
export type ValidMemoryInput = z.output<typeof MemoryInputSchema>;
