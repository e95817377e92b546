// Spec "Chat history" → reset-context "clears native resume pointers": the
// settings-key module the orchestrator writes (`chat-resume:<sessionKey>`)
// and the reset clears. An unreadable pointer reads as none, so a corrupt
// value can only ever cause a fresh conversation, never a wrong resume.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createResumePointers, resumeKey } from '../../shared/chat-history/index.ts';
import { migrate } from '../../shared/db/migrations.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createLogger } from '../../shared/log.ts';

void test('Smaller resources → Chat history: resume pointers are set, read, cleared once, and an unreadable one reads as none', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-resume-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  migrate(db);
  const settings = createSettingsTable(db);
  const logs: string[] = [];
  const resume = createResumePointers(settings, createLogger({ level: 'warn' }, { write: (s: string) => void logs.push(s) }));
  const key = 'agent:alpha:team:t1';

  assert.equal(resume.get(key), null);
  resume.set(key, { runtime: 'claude-code', nativeSessionId: 'abc' });
  assert.equal(resumeKey(key), `chat-resume:${key}`);
  assert.deepEqual(JSON.parse(settings.get(`chat-resume:${key}`) ?? 'null'), { runtime: 'claude-code', nativeSessionId: 'abc' });
  assert.deepEqual(resume.get(key), { runtime: 'claude-code', nativeSessionId: 'abc' });
  assert.equal(resume.clear(key), true);
  assert.equal(resume.clear(key), false, 'nothing left to clear');
  assert.equal(settings.get(resumeKey(key)), null);

  assert.throws(() => resume.set(key, { runtime: '', nativeSessionId: 'x' }), 'an empty runtime is refused at write');
  for (const bad of ['{nope', '{"runtime":"x"}', '[]']) {
    settings.set(resumeKey(key), bad);
    assert.equal(resume.get(key), null, bad);
  }
  assert.equal(logs.length, 3, 'each unreadable pointer is logged');
});
