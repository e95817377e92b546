// note (safe): appends one JSON line to `<SVC_HOME>/notes.jsonl` (mode 0600):
// { id, ts, agentId, taskId, tenantId, text, tags }. A file rather than the
// event log because the log's kinds are fixed by the spec and none is a note;
// the text is masked before it is written, as everything svc stores is.
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { uuidv7 } from '../../ids.ts';
import { maskText } from '../../redact.ts';
import type { ToolDef } from '../types.ts';

const Input = z.object({
  text: z.string().min(1).max(4000).describe('The note'),
  tags: z.array(z.string().max(64)).max(16).optional().describe('Optional labels'),
});

export function noteTool(notesFile: string): ToolDef<typeof Input> {
  return {
    name: 'note',
    description: 'Appends a short note to svc\'s notes file, stamped with the calling agent and task.',
    risk: 'safe',
    input: Input,
    availability: () => ({ available: true, diagnostics: [] }),
    run: async ({ text, tags }, ctx) => {
      const id = uuidv7();
      const line = { id, ts: Date.now(), agentId: ctx.agentId, taskId: ctx.taskId, tenantId: ctx.tenantId, text: maskText(text), tags: (tags ?? []).map(maskText) };
      mkdirSync(dirname(notesFile), { recursive: true, mode: 0o700 });
      appendFileSync(notesFile, JSON.stringify(line) + '\n', { mode: 0o600 });
      chmodSync(notesFile, 0o600); // exact whatever the umask, as for every svc file that may hold agent text
      return { text: `noted (${id})`, data: { id } };
    },
  };
}
