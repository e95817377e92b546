#!/usr/bin/env node
// svc-mcp-tools: the tools MCP server over stdio (see shared/mcp/stdio.ts).
import { runStdio } from '../../shared/mcp/stdio.ts';

void runStdio('tools');
