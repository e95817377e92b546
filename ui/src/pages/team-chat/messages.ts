// Words the team chat page shows that are not the server's own.
import { ApiError } from '../../api/errors.ts';

/** The server's message as it is (the spec's strings), or what went wrong on the way. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return `Could not reach svc: ${err.message}`;
  return String(err);
}

export const noticeText = (kind: 'no-reply' | 'stopped', name: string): string =>
  kind === 'stopped' ? `${name} stopped before replying` : `${name} finished without a reply`;
