// delete_path (destructive): removes a file or folder inside svc's workspace
// folder (`<SVC_HOME>/workspace`). Every call waits for a human approval
// (or a sticky allow_always for that agent). Confinement is checked twice:
// before anyone is asked (an outside path is refused without a prompt) and
// again right before the removal, since the folder may change while the
// approval is pending.
import { rmSync } from 'node:fs';
import { z } from 'zod';
import type { ToolDef } from '../types.ts';
import { confine } from './confine.ts';

const Input = z.object({
  path: z.string().min(1).max(4096).describe('Path to delete, relative to the workspace folder (or absolute inside it)'),
});

export function deletePathTool(workspaceDir: string): ToolDef<typeof Input> {
  return {
    name: 'delete_path',
    description: `Deletes a file or folder inside svc's workspace folder (${workspaceDir}). Every call waits for a human approval.`,
    risk: 'destructive',
    input: Input,
    availability: () => ({ available: true, diagnostics: [] }),
    precheck: ({ path }) => {
      const c = confine(workspaceDir, path);
      return c.ok ? null : c.reason;
    },
    run: async ({ path }) => {
      const c = confine(workspaceDir, path);
      if (!c.ok) throw new Error(c.reason);
      rmSync(c.target, { recursive: true, force: false });
      return { text: `deleted ${path}`, data: { deleted: c.target } };
    },
  };
}
