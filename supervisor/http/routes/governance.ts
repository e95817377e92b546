// Spec "Governance": GET /api/governance/audit, the append-only forensic log,
// newest first, summaries masked. There is no write endpoint: rows are written
// by the features they record (skill installs today). The body is a bare
// array of rows, the spec's "200 the rows"; `seq` is the paging cursor.
import type { FastifyInstance } from 'fastify';
import { AuditQuerySchema, createAuditLog } from '../../../shared/governance/index.ts';
import type { AppDeps } from '../../deps.ts';

export function governanceRoutes(app: FastifyInstance, { db, redactor }: AppDeps): void {
  const audit = createAuditLog(db);

  // Rows are masked on write and on read; the redactor adds the exact secrets in play.
  app.get('/api/governance/audit', async (req) => redactor.deep(audit.list(AuditQuerySchema.parse(req.query))));
}
