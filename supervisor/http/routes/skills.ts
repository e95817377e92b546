// Spec "Smaller resources" → "Skills": list (optional agentId filter), install
// behind the injection scan (422 with findings when it finds anything, 422
// with none when the scan ran past its time limit), and remove an agent from
// a skill. The scan runs in the job pool, off the request thread (issue 15
// #3), and stops when the client goes away (client-gone.ts): then nothing
// is installed. Field names the spec leaves open are in docs/api.md.
import type { FastifyInstance } from 'fastify';
import { createAuditLog } from '../../../shared/governance/index.ts';
import { SKILL_MESSAGES as M, SkillDeleteQuery, SkillInstallSchema, SkillListQuery, createSkillStore } from '../../../shared/skills/index.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError, badRequest } from '../http-error.ts';
import { objectBody, parseOr400 } from '../validate.ts';
import { clientGoneSignal } from '../client-gone.ts';

export function skillsRoutes(app: FastifyInstance, { db, tx, logger, redactor, pool, config }: AppDeps): void {
  const skills = createSkillStore(db, tx, createAuditLog(db), {
    scan: (input, { signal }) => {
      logger.debug({ bodyChars: input.body?.length ?? 0 }, 'skill scan started');
      return pool.skillScan(input, config.skillScanTimeoutMs, { signal });
    },
  });

  // The spec's list failure carries `skills: []` beside the error (the one error handler adds it).
  const listConfig = { errorReply: { unexpected: { fields: { skills: [] } } } };
  app.get('/api/skills', { config: listConfig }, async (req) => ({ skills: skills.list(SkillListQuery.parse(req.query).agentId) }));

  app.post('/api/skills', { config: { badJsonMessage: M.bodyRequired } }, async (req, reply) => {
    const input = parseOr400(SkillInstallSchema, objectBody(req.body, M.bodyRequired));
    const result = await skills.install(input, { signal: clientGoneSignal(reply) });
    // Excerpts are masked by the scan; the redactor also knows the exact secrets in play.
    if (result.outcome === 'blocked') throw new HttpError(422, M.blocked, { findings: redactor.deep(result.findings) });
    // The spec's blocked-install status and shape: nothing was found because nothing was checked.
    if (result.outcome === 'scan-timeout') throw new HttpError(422, M.scanTimedOut(result.timeoutMs), { findings: [] });
    return result.skill;
  });

  app.delete('/api/skills', async (req) => {
    const q = SkillDeleteQuery.safeParse(req.query);
    if (!q.success) throw badRequest(M.deleteRequired);
    const { outcome, skill } = skills.remove(q.data.id, q.data.agentId);
    return { ok: true, outcome, skill };
  });
}
