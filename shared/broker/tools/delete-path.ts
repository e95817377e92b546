// delete_path (destructive): removes a file or folder inside svc's workspace
// folder (`<SVC_HOME>/workspace`). Every call waits for a human approval
// (or a sticky allow_always for that agent). Confinement is checked before
// anyone is asked (an outside path, or one through a symlink, is refused
// without a prompt; what was checked is remembered) and again at removal,
// which moves the target into a quarantine folder and checks it there
// before deleting it (quarantine.ts), since the folder may change while the
// approval is pending or even while the removal runs.
import { z } from 'zod';
import type { ToolDef } from '../types.ts';
import { confine, type FileId } from './confine.ts';
import { removeConfined } from './quarantine.ts';

const Input = z.object({
  path: z.string().min(1).max(4096).describe('Path to delete, relative to the workspace folder (or absolute inside it); symlinks are refused'),
});

const isFileId = (v: unknown): v is FileId =>
  typeof v === 'object' && v !== null && typeof (v as FileId).dev === 'string' && typeof (v as FileId).ino === 'string';

export function deletePathTool(workspaceDir: string): ToolDef<typeof Input> {
  return {
    name: 'delete_path',
    description: `Deletes a file or folder inside svc's workspace folder (${workspaceDir}). Every call waits for a human approval.`,
    risk: 'destructive',
    input: Input,
    availability: () => ({ available: true, diagnostics: [] }),
    precheck: ({ path }) => {
      const c = confine(workspaceDir, path);
      return c.ok ? { seen: c.id } : { refused: c.reason };
    },
    run: async ({ path }, ctx) => {
      const deleted = removeConfined(workspaceDir, path, isFileId(ctx.prechecked) ? ctx.prechecked : undefined);
      return { text: `deleted ${path}`, data: { deleted } };
    },
  };
}
