// Issue 16 #6: the general rate limit's window
// (supervisor/http/plugins/rate-limit.ts), with an injected clock: no test
// here waits for the wall clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRateLimiter, rateLimitMessage, RATE_LIMIT_WINDOW_MS } from '../../supervisor/http/plugins/rate-limit.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

void test('Limits (issue 16 #6): N requests per address pass in a window, the next is refused until the window frees', () => {
  const c = clock();
  const limiter = createRateLimiter({ perMinute: 3, now: c.now });
  assert.deepEqual([1, 2, 3].map(() => limiter.hit('127.0.0.1')), [null, null, null]);
  assert.equal(limiter.hit('127.0.0.1'), 60, 'refused: the whole window is left');
  assert.equal(limiter.hit('127.0.0.2'), null, 'another address has its own budget');
  c.advance(59_001);
  assert.equal(limiter.hit('127.0.0.1'), 1, 'Retry-After rounds up, never 0');
  c.advance(RATE_LIMIT_WINDOW_MS - 59_001);
  assert.equal(limiter.hit('127.0.0.1'), null, 'a new window');
  assert.deepEqual(limiter.refusal, { error: rateLimitMessage(3) });
  assert.equal(rateLimitMessage(3), 'rate limit exceeded: 3 requests per minute');
});

void test('Limits (issue 16 #6): a clock set back by more than a window opens a new window; Retry-After never exceeds a minute', () => {
  const c = clock();
  const limiter = createRateLimiter({ perMinute: 1, now: c.now });
  assert.equal(limiter.hit('a'), null);
  assert.equal(limiter.hit('a'), 60);
  c.advance(-10 * RATE_LIMIT_WINDOW_MS);
  assert.equal(limiter.hit('a'), null);
  assert.equal(limiter.hit('a'), 60);
});

void test('Limits (issue 16 #6): past the tracked-address cap, new addresses share one budget; tracked ones keep theirs', () => {
  const c = clock();
  const limiter = createRateLimiter({ perMinute: 2, now: c.now, maxTracked: 2 });
  assert.equal(limiter.hit('a'), null);
  assert.equal(limiter.hit('b'), null);
  assert.equal(limiter.hit('c'), null);
  assert.equal(limiter.hit('d'), null);
  assert.equal(limiter.hit('e'), 60, 'c, d and e share the overflow budget of 2');
  assert.equal(limiter.hit('a'), null, 'a keeps its own');
  assert.equal(limiter.hit('a'), 60);
  c.advance(RATE_LIMIT_WINDOW_MS);
  assert.equal(limiter.hit('e'), null, 'the next window tracks e by itself');
});
