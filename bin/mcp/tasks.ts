#!/usr/bin/env node
// svc-mcp-tasks: the tasks MCP server over stdio (see shared/mcp/stdio.ts).
import { runStdio } from '../../shared/mcp/stdio.ts';

void runStdio('tasks');
