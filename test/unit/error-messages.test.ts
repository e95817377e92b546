// Errors (issue 16 #1): messageOf, the one way to read a caught value's
// message, and publicMessageOf, what of it may leave the process: a SQLite
// error by its code only, also when it crosses a worker channel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { createChannelClient } from '../../shared/channels/client.ts';
import { defineContract } from '../../shared/channels/contract.ts';
import { serveChannel } from '../../shared/channels/server.ts';
import { messageOf, publicMessageOf, sqliteCodeOf } from '../../shared/errors.ts';

/** A real SqliteError: a query against a table that does not exist. */
function sqliteError(): unknown {
  const db = new Database(':memory:');
  try {
    db.prepare('SELECT secret FROM hidden_table').all();
  } catch (err) {
    return err;
  } finally {
    db.close();
  }
  throw new Error('the query above should have thrown');
}

void test('Errors (issue 16 #1): messageOf reads an Error\'s message and anything else as a string', () => {
  assert.equal(messageOf(new Error('boom')), 'boom');
  assert.equal(messageOf(new TypeError('bad type')), 'bad type');
  assert.equal(messageOf('a thrown string'), 'a thrown string');
  assert.equal(messageOf(42), '42');
  assert.equal(messageOf(undefined), 'undefined');
  assert.equal(messageOf({ code: 'X' }), '[object Object]');
});

void test('Errors (issue 16 #1): publicMessageOf gives a SQLite error by its code only, anything else by its message', () => {
  const err = sqliteError();
  assert.match(messageOf(err), /no such table: hidden_table/, 'the log keeps the detail');
  assert.equal(sqliteCodeOf(err), 'SQLITE_ERROR');
  assert.equal(publicMessageOf(err), 'database error (SQLITE_ERROR)');
  // A SQLite error cloned across a thread keeps only its enumerable code.
  assert.equal(publicMessageOf({ code: 'SQLITE_BUSY' }), 'database error (SQLITE_BUSY)');
  const fsError = Object.assign(new Error('ENOENT: no such file, open /x'), { code: 'ENOENT' });
  assert.equal(sqliteCodeOf(fsError), null);
  assert.equal(publicMessageOf(fsError), 'ENOENT: no such file, open /x');
  assert.equal(publicMessageOf(new Error('plain')), 'plain');
});

void test('Errors (issue 16 #1): a SQLite error thrown by a worker channel handler crosses as its code, never its SQL', async (t) => {
  const contract = defineContract({ name: 'db', requests: { read: { payload: z.object({}), result: z.object({}) } }, events: {} });
  const { port1, port2 } = new MessageChannel();
  const client = createChannelClient(contract, port1, { defaultTimeoutMs: 5000 });
  const server = serveChannel(contract, port2, {
    read: () => {
      throw sqliteError();
    },
  });
  t.after(() => {
    client.dispose();
    server.dispose();
    port1.close();
    port2.close();
  });
  const r = await client.request('read', {});
  assert.deepEqual(r, { ok: false, error: { code: 'HANDLER_ERROR', message: 'database error (SQLITE_ERROR)' } });
});
