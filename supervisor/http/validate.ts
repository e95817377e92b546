// Input checks shared by the routes: zod at the boundary, the spec's message
// on failure, nothing written before the input is known good.
import type { z } from 'zod';
import { badRequest } from './http-error.ts';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A path segment that must be present: empty or blank gets 400 with `message`. */
export function requireParam(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw badRequest(message);
  return value;
}

/**
 * Describes the first problem as `field: message`; a message that already
 * starts with its field's name (the schemas' own wording) is used as is.
 */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issue.path.join('.');
  const field = String(issue.path[issue.path.length - 1] ?? '');
  if (!path || (field && issue.message.startsWith(field))) return issue.message;
  return `${path}: ${issue.message}`;
}

/**
 * Parses `input`; on failure throws 400 with `message` (the spec's, when it
 * names one) or a description of the first problem.
 */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, message?: string): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  throw badRequest(message ?? describeIssue(r.error));
}

/** The body as an object, or 400 with `message` for a missing, array or scalar body. */
export function objectBody(body: unknown, message: string): Record<string, unknown> {
  if (!isObject(body)) throw badRequest(message);
  return body;
}
