#!/usr/bin/env node
// svc-mcp-memory: the memory MCP server over stdio (see shared/mcp/stdio.ts).
import { runStdio } from '../../shared/mcp/stdio.ts';

void runStdio('memory');
