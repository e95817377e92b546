// The error every /api call throws on a non-2xx answer (client.ts, and the
// POST-stream reader before its stream starts): the server's message as it
// wrote it, the status and the body. A 400's `details.fieldErrors` stays on
// the body so a form can show each message next to its field.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The per-field messages of a 400's flattened zod details (`{ formErrors, fieldErrors }`), else {}. */
export function fieldErrorsOf(err: unknown): Record<string, string[]> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  const details = (err.body as { details?: { fieldErrors?: unknown } } | undefined)?.details;
  const fe = details?.fieldErrors;
  if (typeof fe !== 'object' || fe === null) return {};
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fe)) {
    if (Array.isArray(v)) out[k] = v.filter((m): m is string => typeof m === 'string');
  }
  return out;
}
