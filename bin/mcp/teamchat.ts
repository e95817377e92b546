#!/usr/bin/env node
// svc-mcp-teamchat: the teamchat MCP server over stdio (see shared/mcp/stdio.ts).
import { runStdio } from '../../shared/mcp/stdio.ts';

void runStdio('teamchat');
