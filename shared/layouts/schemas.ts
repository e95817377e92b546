// Spec "Smaller resources" → "Graph layout": the saved node positions of the
// agent graph, one layout per (name, gateway URL). Positions are bounded so
// one client cannot grow a row without limit.
import { z } from 'zod';

export const LAYOUT_MESSAGES = {
  bodyRequired: 'JSON object body required',
  gatewayUrlRequired: 'gatewayUrl required',
} as const;

export const DEFAULT_LAYOUT_NAME = 'default';
export const LAYOUT_LIMITS = { nodes: 5000, nodeIdLength: 256, nameLength: 200, urlLength: 2048 } as const;

// zod 4's number() already refuses Infinity and NaN.
const Point = z.object({ x: z.number(), y: z.number() });

export const Positions = z
  .record(z.string().min(1).max(LAYOUT_LIMITS.nodeIdLength), Point)
  .refine((p) => Object.keys(p).length <= LAYOUT_LIMITS.nodes, `positions: at most ${LAYOUT_LIMITS.nodes} nodes`);

export const Viewport = z.object({ x: z.number(), y: z.number(), zoom: z.number().positive() });

/** What the layout column holds (JSON). */
export const StoredLayout = z.object({ positions: Positions, viewport: Viewport.optional() });
export type StoredLayout = z.infer<typeof StoredLayout>;

export const GatewayUrlField = z.object({ gatewayUrl: z.string().trim().min(1).max(LAYOUT_LIMITS.urlLength) });

export const LayoutPostBody = GatewayUrlField.extend({
  // Blank or absent: the default layout.
  name: z
    .string()
    .max(LAYOUT_LIMITS.nameLength)
    .optional()
    .transform((n) => n?.trim() || DEFAULT_LAYOUT_NAME),
  positions: Positions,
  viewport: Viewport.optional(),
});
export type LayoutPostBody = z.output<typeof LayoutPostBody>;

export interface GraphLayout extends StoredLayout {
  name: string;
  gatewayUrl: string;
  updatedAt: number;
}

/** The query of the read: `url` (not `gatewayUrl`) and `name`; anything unusable reads as a miss. */
export function layoutKey(query: unknown): { gatewayUrl: string; name: string } | null {
  const q = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const url = typeof q.url === 'string' ? q.url.trim() : '';
  if (url === '') return null;
  const name = typeof q.name === 'string' && q.name.trim() !== '' ? q.name.trim() : DEFAULT_LAYOUT_NAME;
  return { gatewayUrl: url, name };
}
