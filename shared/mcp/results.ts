// Tool results for the MCP servers: a success carries its JSON as text (what
// every client shows the model) and as structuredContent; a refusal from the
// domain is an MCP error result (`isError: true`) whose text is the HTTP
// route's message, so an agent reads the same words a dashboard user sees.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, type DomainErrorKind } from '../errors.ts';
import type { McpContext } from './types.ts';

/** The HTTP status the route would answer for a domain refusal. */
const DOMAIN_STATUS: Readonly<Record<DomainErrorKind, number>> = { invalid: 400, not_found: 404, conflict: 409 };

export function okResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function errorResult(message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    structuredContent: { error: message, ...extra },
  };
}

/**
 * Runs a tool body. A DomainError becomes an error result with the route's
 * message and status; anything else is logged and answered with a redacted
 * message (a SQLite failure by its code only), never a stack.
 */
export function runTool(ctx: Pick<McpContext, 'logger' | 'redactor'>, tool: string, body: () => CallToolResult): CallToolResult {
  try {
    return body();
  } catch (err) {
    return toolFailure(ctx, tool, err);
  }
}

export function toolFailure(ctx: Pick<McpContext, 'logger' | 'redactor'>, tool: string, err: unknown): CallToolResult {
  if (err instanceof DomainError) {
    return errorResult(ctx.redactor.text(err.message), { status: DOMAIN_STATUS[err.kind], ...err.extra });
  }
  ctx.logger.error({ err, tool }, 'MCP tool failed');
  const code = (err as { code?: unknown }).code;
  const message = typeof code === 'string' && code.startsWith('SQLITE_')
    ? `database error (${code})`
    : ctx.redactor.text(err instanceof Error && err.message ? err.message : 'internal error');
  return errorResult(message, { status: 500 });
}
