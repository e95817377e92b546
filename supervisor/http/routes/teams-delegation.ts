// Issue 23 item 1: a team's delegation policy and what the gateway config
// holds for it (GET/PUT /api/teams/:id/delegation), and importing a team the
// gateway made (GET /api/teams/import/candidates, POST /api/teams/import).
// The rule is in shared/teams/delegation-sync.ts; the gateway reconciler
// writes the lists (shared/gateway-wiring/roster.ts) after every roster change.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isUnreachable } from '../../../shared/exec/gateway-policy.ts';
import { DomainError, messageOf } from '../../../shared/errors.ts';
import { listGatewayAgents, withAllowAgents } from '../../../shared/gateway/agents-directory.ts';
import { readAllowAgents } from '../../../shared/gateway/subagents-config.ts';
import { readGatewayConfig } from '../../../shared/settings/gateway-files.ts';
import { TEAM_KEYS } from '../../../shared/setting-keys.ts';
import { gatewayIdOf, isSubDelegation, type DelegationView } from '../../../shared/teams/delegation-sync.ts';
import { GatewayUnavailableError, IMPORT_MESSAGES, ImportBody, importPreset } from '../../../shared/teams/import-preset.ts';
import { TEAM_MESSAGES } from '../../../shared/teams/schemas.ts';
import { addressable, loadRoster } from '../../../shared/team-chat/routing/answerer.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

const SUBDELEGATION_REQUIRED = 'subDelegation (boolean) is required';
const DelegationBody = z.object({ subDelegation: z.boolean() });

export function teamsDelegationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { domain, settingsTable, tx, gatewayLink, redactor, gatewayWiring } = deps;
  const call = (method: string, params: unknown, opts: { timeoutMs: number; waitMs: number }) => gatewayLink.call(method, params, opts);
  const configured = () => gatewayLink.status().url !== null;
  const failed = (err: unknown) =>
    err instanceof GatewayUnavailableError || isUnreachable(err)
      ? new HttpError(503, new GatewayUnavailableError().message)
      : new HttpError(502, `gateway call failed: ${redactor.text(messageOf(err))}`);

  const view = (teamId: string): DelegationView => {
    const held = readAllowAgents(readGatewayConfig(gatewayWiring.stateDir()).config);
    const allowAgents: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    for (const agent of addressable(loadRoster(domain, teamId))) {
      const id = gatewayIdOf(agent);
      if (held.has(id)) allowAgents[id] = held.get(id) ?? [];
    }
    const last = gatewayWiring.last();
    const sync = { syncedAt: gatewayWiring.lastOkAt(), error: last && !last.ok ? last.error : null };
    return { teamId, subDelegation: isSubDelegation(settingsTable, teamId), allowAgents: { ...allowAgents }, sync };
  };
  const existingTeam = (id: string | undefined): string => {
    const teamId = requireParam(id, TEAM_MESSAGES.idRequired);
    if (!domain.teams.exists(teamId)) throw new HttpError(404, TEAM_MESSAGES.notFound);
    return teamId;
  };

  app.get<{ Params: { id?: string } }>('/api/teams/:id/delegation', async (req) => view(existingTeam(req.params.id)));

  app.put<{ Params: { id?: string } }>('/api/teams/:id/delegation', { config: { badJsonMessage: SUBDELEGATION_REQUIRED } }, async (req) => {
    const { subDelegation } = parseOr400(DelegationBody, objectBody(req.body, SUBDELEGATION_REQUIRED), SUBDELEGATION_REQUIRED);
    const teamId = existingTeam(req.params.id);
    settingsTable.set(TEAM_KEYS.subDelegation(teamId), subDelegation ? 'true' : 'false');
    // The answer shows the lists as the gateway holds them: the round runs before it.
    await gatewayWiring.reconcile('sub-delegation switched');
    return view(teamId);
  });

  // The import dialog's list: gateway agents with the ids each may spawn (from openclaw.json).
  app.get('/api/teams/import/candidates', async () => {
    const list = await listGatewayAgents(call, configured()).catch((err: unknown) => Promise.reject(failed(err)));
    return withAllowAgents(list, readAllowAgents(readGatewayConfig(gatewayWiring.stateDir()).config));
  });

  app.post('/api/teams/import', { config: { badJsonMessage: IMPORT_MESSAGES.coordinatorRequired } }, async (req, reply) => {
    const { coordinatorId } = parseOr400(ImportBody, objectBody(req.body, IMPORT_MESSAGES.coordinatorRequired), IMPORT_MESSAGES.coordinatorRequired);
    const imported = await importPreset({ domain, tx, call, configured: configured(), stateDir: gatewayWiring.stateDir() }, coordinatorId).catch(
      (err: unknown) => Promise.reject(err instanceof DomainError ? err : failed(err)),
    );
    return reply.code(201).send(imported);
  });
}
