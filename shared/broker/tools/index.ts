// The builtin tools (spec "Tool"), in the order GET /api/tools lists them.
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { SvcPaths } from '../../paths.ts';
import type { ToolDef } from '../types.ts';
import { deletePathTool } from './delete-path.ts';
import { echoTool } from './echo.ts';
import { noteTool } from './note.ts';
import { webSearchTool } from './web-search.ts';

/** The one folder delete_path may touch. */
export const workspaceDir = (paths: Pick<SvcPaths, 'home'>): string => join(paths.home, 'workspace');
/** Where note appends its lines. */
export const notesFile = (paths: Pick<SvcPaths, 'home'>): string => join(paths.home, 'notes.jsonl');

export function builtinTools(config: Pick<Config, 'searchUrl' | 'searchApiKey'>, paths: Pick<SvcPaths, 'home'>): ToolDef[] {
  // Each def is typed by its own schema; the registry sees them through the common shape.
  return [echoTool(), noteTool(notesFile(paths)), webSearchTool(config), deletePathTool(workspaceDir(paths))] as unknown as ToolDef[];
}
