// echo (safe): returns its text. A harmless probe that a session works end to end.
import { z } from 'zod';
import type { ToolDef } from '../types.ts';

const Input = z.object({ text: z.string().max(10_000).describe('Text to return unchanged') });

export function echoTool(): ToolDef<typeof Input> {
  return {
    name: 'echo',
    description: 'Returns the given text unchanged.',
    risk: 'safe',
    input: Input,
    availability: () => ({ available: true, diagnostics: [] }),
    run: async ({ text }) => ({ text, data: { text } }),
  };
}
