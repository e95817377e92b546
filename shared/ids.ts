// Time-ordered ids (UUIDv7, RFC 9562). Ids that are indexed and written often
// must be time-ordered: random v4 ids under a unique index halved batched
// inserts in our measurements, because every insert lands on a random B-tree page.
import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the CSPRNG in blocks and handed out 16 at a
// time (as Node's own crypto.randomUUID() does): one randomBytes() call per
// id cost ~9 % of a board claim in profiles.
const POOL_SIZE = 16 * 256;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** The next `n` bytes of the pool (a view: copy it before changing it), refilled from the CSPRNG when spent. */
function draw(n: number): Buffer {
  if (n > POOL_SIZE) throw new RangeError(`at most ${POOL_SIZE} random bytes at a time`);
  if (poolOffset + n > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const b = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return b;
}

/** `n` random bytes as hex, from the same pool: trace and span ids, minted on every run and model call. */
export const randomHex = (n: number): string => draw(n).toString('hex');

/**
 * A generator of its own: ids it mints are in order among themselves (its
 * own last millisecond and counter). The process mints with one, `uuidv7`;
 * a test that checks the time an id carries makes its own, so that ids an
 * earlier test minted at a later time cannot hold it back.
 */
export function createUuidv7(): (now?: number) => string {
  let lastMs = 0;
  let seq = 0;
  return (now = Date.now()) => {
    const b = Buffer.from(draw(16));
    // A 12-bit counter keeps ids minted within one millisecond in order; it
    // starts at a random value below 0x800 each new millisecond.
    if (now <= lastMs) {
      seq = (seq + 1) & 0xfff;
      if (seq === 0) lastMs += 1;
      now = lastMs;
    } else {
      lastMs = now;
      seq = (((b[6] as number) << 8) | (b[7] as number)) & 0x7ff;
    }
    b.writeUIntBE(now, 0, 6);
    b[6] = 0x70 | ((seq >> 8) & 0x0f);
    b[7] = seq & 0xff;
    b[8] = 0x80 | ((b[8] as number) & 0x3f);
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
}

/** svc's ids: one generator for the process, so every id it mints is after the one before. */
export const uuidv7: (now?: number) => string = createUuidv7();

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
