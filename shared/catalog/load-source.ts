// Reading one source: its index, then each listed bundle, each verified
// against the index's sha256 before it is even parsed. A problem with one
// pack refuses that pack only; a problem with the index refuses the source.
// Either way the problem is logged once here (callers cache the result, so
// one failed read is one log line) and reported in the source's status.
import type { Logger } from '../log.ts';
import { digestMatches } from './digest.ts';
import { BundleSchema, describeZodError, IndexSchema, type PackEntry } from './schemas.ts';
import type { LoadedPack, PackProblem, SourceKind, SourceResult } from './types.ts';
import { messageOf } from '../errors.ts';

export interface SourceReader {
  kind: SourceKind;
  location: string;
  readIndex(): Promise<Buffer>;
  /** The bytes of the bundle the index names as `ref`; throws when the ref is not allowed for this source. */
  readBundle(ref: string): Promise<Buffer>;
}

/** A thrown value as one short line (fetch's own message hides the cause that says why). */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'timed out';
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return `${err.message} (${cause.code})`;
  if (cause && typeof cause.message === 'string') return `${err.message} (${cause.message})`;
  return err.message;
}

function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    throw new Error(`${what} is not valid JSON: ${messageOf(err)}`, { cause: err });
  }
}

async function loadPack(reader: SourceReader, entry: PackEntry): Promise<LoadedPack> {
  const bytes = await reader.readBundle(entry.bundle);
  if (!digestMatches(bytes, entry.sha256)) throw new Error('bundle sha256 does not match the index (refused)');
  const parsed = BundleSchema.safeParse(parseJson(bytes, 'bundle'));
  if (!parsed.success) throw new Error(`invalid bundle: ${describeZodError(parsed.error)}`);
  if (parsed.data.pack !== entry.id) throw new Error(`bundle belongs to pack ${parsed.data.pack}, not ${entry.id}`);
  return { entry, bundle: parsed.data, source: reader.kind };
}

export async function loadSource(reader: SourceReader, logger: Logger, now: number): Promise<SourceResult> {
  const base = { kind: reader.kind, location: reader.location, checkedAt: now };
  let entries: PackEntry[];
  try {
    const parsed = IndexSchema.safeParse(parseJson(await reader.readIndex(), 'index'));
    if (!parsed.success) throw new Error(`invalid index: ${describeZodError(parsed.error)}`);
    entries = parsed.data.packs;
  } catch (err) {
    const error = describeFailure(err);
    logger.warn({ source: reader.kind, location: reader.location, error }, 'catalog source unavailable; serving the other sources');
    return { status: { ...base, ok: false, error, packs: [], refused: [] }, packs: [] };
  }
  const settled = await Promise.allSettled(entries.map((e) => loadPack(reader, e)));
  const packs: LoadedPack[] = [];
  const refused: PackProblem[] = [];
  settled.forEach((r, i) => {
    const id = (entries[i] as PackEntry).id;
    if (r.status === 'fulfilled') return void packs.push(r.value);
    const error = describeFailure(r.reason);
    refused.push({ pack: id, error });
    logger.warn({ source: reader.kind, location: reader.location, pack: id, error }, 'catalog pack refused; its contents are not served');
  });
  const error = refused.length > 0 ? `${refused.length} of ${entries.length} packs refused` : null;
  return { status: { ...base, ok: error === null, error, packs: packs.map((p) => p.entry.id), refused }, packs };
}
