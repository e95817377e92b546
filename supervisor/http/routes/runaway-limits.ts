// Runaway turns (issue 31 item 7, docs/runaway.md): a team's limits on its
// agents' turns (GET/PUT /api/teams/:id/runaway-limits), which svc's model
// endpoint enforces (shared/model-proxy/runaway.ts), and the gateway's own
// tool-loop detection per agent (GET/PUT /api/system/loop-detection), read
// from the gateway's config and switched through its config.patch. Routes
// only: the rules are in shared/model-proxy/runaway-limits.ts and
// shared/gateway/loop-detection.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isUnreachable } from '../../../shared/exec/gateway-policy.ts';
import { messageOf } from '../../../shared/errors.ts';
import { patchThroughGateway } from '../../../shared/gateway/config-rpc.ts';
import { LOOP_DETECTION_MESSAGES as LM, LoopDetectionSwitch, loopDetectionPatch, readLoopDetection, type LoopDetectionView } from '../../../shared/gateway/loop-detection.ts';
import { gatewayAgentIds } from '../../../shared/model-routing/sync.ts';
import { readTeamRunawayLimits, RunawayLimitsPatch, writeTeamRunawayLimits } from '../../../shared/model-proxy/runaway-limits.ts';
import { readGatewayConfig } from '../../../shared/settings/gateway-files.ts';
import { TEAM_MESSAGES } from '../../../shared/teams/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, HttpError } from '../http-error.ts';
import { requireParam } from '../validate.ts';

const LIMITS_INVALID = 'runaway limits: maxCallsPerTurn and maxIdenticalRepeats are whole numbers in bounds (see details)';
const GATEWAY_TIMEOUT = { timeoutMs: 30_000, waitMs: 0 };

export function runawayLimitsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { domain, settingsTable, gatewayLink, gatewayWiring, redactor, logger } = deps;

  const existingTeam = (id: string | undefined): string => {
    const teamId = requireParam(id, TEAM_MESSAGES.idRequired);
    if (!domain.teams.exists(teamId)) throw new HttpError(404, TEAM_MESSAGES.notFound);
    return teamId;
  };
  const teamView = (teamId: string) => ({ teamId, ...readTeamRunawayLimits(settingsTable, teamId, logger) });

  app.get<{ Params: { id?: string } }>('/api/teams/:id/runaway-limits', async (req) => teamView(existingTeam(req.params.id)));

  app.put<{ Params: { id?: string } }>('/api/teams/:id/runaway-limits', { config: { badJsonMessage: LIMITS_INVALID } }, async (req) => {
    const teamId = existingTeam(req.params.id);
    const body = RunawayLimitsPatch.safeParse(req.body ?? {});
    if (!body.success) throw badRequest(LIMITS_INVALID, { details: z.flattenError(body.error) });
    writeTeamRunawayLimits(settingsTable, teamId, body.data);
    return teamView(teamId);
  });

  const call = (method: string, params: unknown) => gatewayLink.call(method, params, GATEWAY_TIMEOUT);
  const connected = () => gatewayLink.status().state === 'connected';
  const failed = (err: unknown) =>
    isUnreachable(err) ? new HttpError(503, LM.notConnected) : new HttpError(502, `gateway call failed: ${redactor.text(messageOf(err))}`);

  /** Connected: the gateway's own copy (loopDetection holds no secret, so config.get's masking does not matter); else the file. */
  const loopView = async (): Promise<LoopDetectionView> => {
    const gateway = { connected, call };
    if (connected()) {
      try {
        const got = (await call('config.get', {})) as { parsed?: unknown } | null;
        const config = got?.parsed ?? {};
        return readLoopDetection(config, await gatewayAgentIds({ gateway }, config), 'gateway');
      } catch (err) {
        // Gone mid-read (a restart): the file says the same, as when it is not connected.
        if (!isUnreachable(err)) throw failed(err);
      }
    }
    const read = readGatewayConfig(gatewayWiring.stateDir());
    // No gateway yet: nothing to show or switch, which is not an error for a person setting svc up.
    if (!read.config) return readLoopDetection({}, [], 'none');
    // The file alone: a gateway that just went away is not asked again for its agents.
    return readLoopDetection(read.config, await gatewayAgentIds({ gateway: { connected: () => false, call } }, read.config), 'file');
  };

  app.get('/api/system/loop-detection', loopView);

  app.put('/api/system/loop-detection', { config: { badJsonMessage: LM.body } }, async (req) => {
    const body = LoopDetectionSwitch.safeParse(req.body ?? {});
    if (!body.success) throw badRequest(LM.body, { details: z.flattenError(body.error) });
    if (!connected()) throw new HttpError(503, LM.notConnected);
    const { agentId } = body.data;
    if (agentId !== undefined && !(await loopView()).agents.some((a) => a.agentId === agentId)) throw new HttpError(404, LM.unknownAgent(agentId));
    const note = `svc: tool-loop detection ${body.data.enabled === null ? 'unset' : body.data.enabled ? 'on' : 'off'}${agentId === undefined ? '' : ` for ${agentId}`}`;
    await patchThroughGateway(call, { raw: JSON.stringify(loopDetectionPatch(body.data)), replacePaths: [] }, note).catch((err: unknown) => Promise.reject(failed(err)));
    return loopView();
  });
}
