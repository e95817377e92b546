// The skills table and the install rule (spec "Smaller resources" → "Skills").
// A skill is identified by name + source: installing the same name from the
// same source again adds the agent to that row's holders (and, when the body
// or category differ, replaces them: the newest clean copy from a source is
// the current one). Every install attempt is audited: a clean one in the same
// transaction as its skill write, a blocked one on its own, before anything
// else could be written.
//
// The scan is handed in (svc runs it in a pool thread with a time limit, so a
// 2 MB body never holds the front door; issue 15 #3) and awaited before any
// write: the find-then-write of a clean install is one synchronous
// transaction after the scan's answer, so two installs whose scans overlap
// still cannot make two rows. A scan stopped at its time limit checked
// nothing: the install is refused and audited like a blocked one.
import { createHash } from 'node:crypto';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import type { AuditLog } from '../governance/audit.ts';
import { uuidv7 } from '../ids.ts';
import { scanSkill, visibleText, type Finding, type ScanInput } from './injection-scan.ts';
import { AgentIdsSchema, type InstallOutcome, type RemoveOutcome, type ScanOutcome, type Skill, type SkillInstall } from './schemas.ts';

export type InstallResult =
  | { outcome: 'blocked'; findings: Finding[] }
  | { outcome: 'scan-timeout'; timeoutMs: number }
  | { outcome: InstallOutcome; skill: Skill };
export type RemoveResult = { outcome: RemoveOutcome; skill: Skill | null };

export interface SkillStore {
  /** Ordered by name (case-insensitive), then source. */
  list(agentId?: string): Skill[];
  /** Scans first (see SkillStoreOptions.scan), then blocks or records. A fired `signal` stops the scan: nothing is recorded. */
  install(input: SkillInstall, opts?: { signal?: AbortSignal }): Promise<InstallResult>;
  remove(id: string, agentId: string): RemoveResult;
}

interface SkillRow {
  id: string;
  name: string;
  source: string;
  body: string;
  category: string | null;
  agentIds: string;
  fingerprint: string;
  createdAt: number;
  updatedAt: number;
}

const COLUMNS = 'id, name, source, body, category, agent_ids AS agentIds, fingerprint, created_at AS createdAt, updated_at AS updatedAt';

function toSkill(row: SkillRow): Skill {
  let json: unknown;
  try {
    json = JSON.parse(row.agentIds);
  } catch {
    // A plain Error, not the SyntaxError: that one would read as a client's bad JSON (400) instead of damage (500).
    throw new Error(`skill ${row.id} has a damaged agent list`);
  }
  const ids = AgentIdsSchema.safeParse(json);
  if (!ids.success) throw new Error(`skill ${row.id} has a damaged agent list`);
  return { ...row, agentIds: ids.data };
}

export const bodyFingerprint = (body: string) => createHash('sha256').update(body).digest('hex');

/** The name and source for the audit trail, withheld when the scan flagged them or did not finish (the payload stays out of the log). */
function describe(input: SkillInstall, withheld: ReadonlySet<string>, why = 'flagged by the scan'): { subject: string; what: string } {
  const show = (field: 'name' | 'source') => (withheld.has(field) ? `<${field} withheld: ${why}>` : visibleText(input[field].trim()));
  const name = show('name');
  return { subject: `skill ${name}`, what: `skill "${name}" from "${show('source')}"` };
}

export interface SkillStoreOptions {
  /** The injection scan; default: scanSkill on this thread, which always finishes. */
  scan?: (input: ScanInput, opts: { signal?: AbortSignal }) => Promise<ScanOutcome>;
  now?: () => number;
}

const scanHere = async (input: ScanInput): Promise<ScanOutcome> => ({ findings: scanSkill(input) });

export function createSkillStore(db: Db, tx: Tx, audit: AuditLog, { scan = scanHere, now = Date.now }: SkillStoreOptions = {}): SkillStore {
  const listAll = db.prepare(`SELECT ${COLUMNS} FROM skills ORDER BY name COLLATE NOCASE, source, id`);
  const listFor = db.prepare(
    `SELECT ${COLUMNS} FROM skills WHERE EXISTS (SELECT 1 FROM json_each(skills.agent_ids) WHERE value = ?)
     ORDER BY name COLLATE NOCASE, source, id`,
  );
  const byId = db.prepare(`SELECT ${COLUMNS} FROM skills WHERE id = ?`);
  // No unique index on (name, source) in the schema: the IMMEDIATE transaction
  // around find-then-write is what keeps two installs from making two rows.
  const byNameSource = db.prepare(`SELECT ${COLUMNS} FROM skills WHERE name = ? AND source = ? ORDER BY created_at, id LIMIT 1`);
  const insert = db.prepare(
    `INSERT INTO skills (id, name, source, body, category, agent_ids, fingerprint, created_at, updated_at)
     VALUES (@id, @name, @source, @body, @category, @agentIds, @fingerprint, @createdAt, @updatedAt)`,
  );
  const update = db.prepare(
    'UPDATE skills SET body = @body, category = @category, agent_ids = @agentIds, fingerprint = @fingerprint, updated_at = @updatedAt WHERE id = @id',
  );
  const del = db.prepare('DELETE FROM skills WHERE id = ?');
  const get = (id: string) => {
    const row = byId.get(id) as SkillRow | undefined;
    return row ? toSkill(row) : null;
  };
  const write = (s: Skill, stmt: typeof insert) => stmt.run({ ...s, agentIds: JSON.stringify(s.agentIds) });

  function block(input: SkillInstall, findings: Finding[]): InstallResult {
    const { subject, what } = describe(input, new Set(findings.map((f) => f.field)));
    const rules = [...new Set(findings.map((f) => f.pattern))].join(', ');
    // Only rule, line and fingerprint: the excerpts (the payload itself) go to the caller, never into the log.
    const data = { findings: findings.map(({ pattern, line, fingerprint }) => ({ pattern, line, fingerprint })) };
    tx.run(() =>
      audit.append({
        kind: 'install_blocked',
        agentId: input.agentId.trim(),
        subject,
        summary: `install of ${what} blocked: ${findings.length} finding(s) (${rules})`,
        data,
      }),
    );
    return { outcome: 'blocked', findings };
  }

  function timedOut(input: SkillInstall, timeoutMs: number): InstallResult {
    // Nothing was checked, so neither name nor source is trusted into the log.
    const { subject, what } = describe(input, new Set(['name', 'source']), 'not scanned');
    tx.run(() =>
      audit.append({
        kind: 'install_blocked',
        agentId: input.agentId.trim(),
        subject,
        summary: `install of ${what} blocked: the injection scan did not finish within ${timeoutMs} ms`,
        data: { reason: 'scan-timeout', timeoutMs, findings: [] },
      }),
    );
    return { outcome: 'scan-timeout', timeoutMs };
  }

  function accept(input: SkillInstall): InstallResult {
    const agentId = input.agentId.trim();
    const name = input.name.trim();
    const source = input.source.trim();
    const category = input.category?.trim() || null;
    const fingerprint = bodyFingerprint(input.body);
    const t = now();
    return tx.run(() => {
      const row = byNameSource.get(name, source) as SkillRow | undefined;
      const existing = row ? toSkill(row) : null;
      let outcome: InstallOutcome;
      let skill: Skill;
      if (!existing) {
        outcome = 'inserted';
        skill = { id: uuidv7(t), name, source, body: input.body, category, agentIds: [agentId], fingerprint, createdAt: t, updatedAt: t };
      } else {
        const changed = existing.fingerprint !== fingerprint || existing.category !== category;
        const joined = !existing.agentIds.includes(agentId);
        outcome = changed ? 'updated' : 'merged';
        skill = changed || joined
          ? { ...existing, body: input.body, category, fingerprint, agentIds: joined ? [...existing.agentIds, agentId] : existing.agentIds, updatedAt: t }
          : existing;
      }
      const { what } = describe(input, new Set());
      audit.append({
        kind: 'install',
        agentId,
        subject: `skill ${visibleText(name)}`,
        summary: `${what} installed for ${agentId} (${outcome})`,
        data: {
          skillId: skill.id,
          outcome,
          fingerprint,
          ...(existing && existing.fingerprint !== fingerprint ? { previousFingerprint: existing.fingerprint } : {}),
        },
      });
      if (!existing) write(skill, insert);
      else if (skill !== existing) write(skill, update);
      return { outcome, skill };
    });
  }

  return {
    list: (agentId) => ((agentId === undefined ? listAll.all() : listFor.all(agentId)) as SkillRow[]).map(toSkill),
    async install(input, opts = {}) {
      const scanned = await scan({ name: input.name, source: input.source, category: input.category, body: input.body }, opts);
      if ('timedOut' in scanned) return timedOut(input, scanned.timeoutMs);
      return scanned.findings.length > 0 ? block(input, scanned.findings) : accept(input);
    },
    remove(id, agentId) {
      return tx.run((): RemoveResult => {
        const skill = get(id);
        if (!skill) return { outcome: 'not-found', skill: null };
        if (!skill.agentIds.includes(agentId)) return { outcome: 'not-holder', skill };
        const rest = skill.agentIds.filter((a) => a !== agentId);
        if (rest.length === 0) {
          del.run(id);
          return { outcome: 'deleted', skill: null };
        }
        const next = { ...skill, agentIds: rest, updatedAt: now() };
        write(next, update);
        return { outcome: 'removed', skill: next };
      });
    },
  };
}
