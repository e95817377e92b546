// Spec "Governance": GET and POST /api/approvals, the approval-decision
// history (shared/approvals/). Both answer in the `{ ok }` envelope, errors
// too: `{ ok: false, error }`, and the GET's 500 also carries `records: []`.
import type { FastifyInstance } from 'fastify';
import { createDecisionHistory } from '../../../shared/approvals/history.ts';
import { DECISION_MESSAGES, DecisionInput, DecisionQuery, decisionInputProblem } from '../../../shared/approvals/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../http-error.ts';
import type { ErrorReply } from '../plugins/errors.ts';
import { objectBody } from '../validate.ts';

const LIST = { config: { errorReply: { fields: { ok: false }, unexpected: { fields: { records: [] } } } satisfies ErrorReply } };
const RECORD = { config: { badJsonMessage: DECISION_MESSAGES.bodyNotObject, errorReply: { fields: { ok: false } } satisfies ErrorReply } };

export function approvalsHistoryRoutes(app: FastifyInstance, { db, redactor }: AppDeps): void {
  const history = createDecisionHistory(db);

  app.get('/api/approvals', LIST, async (req) => ({ ok: true, records: redactor.deep(history.list(DecisionQuery.parse(req.query))) }));

  app.post('/api/approvals', RECORD, async (req) => {
    const parsed = DecisionInput.safeParse(objectBody(req.body, DECISION_MESSAGES.bodyNotObject));
    if (!parsed.success) throw badRequest(decisionInputProblem(parsed.error));
    const { agentId, toolName, action, reason } = parsed.data;
    return { ok: true, record: history.record({ agentId, toolName, action, approvalId: null, reason: reason ?? null }, Date.now()) };
  });
}
