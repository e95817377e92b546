// Issue 30 item 2 (docs/gateway-wiring.md): what svc wires into the gateway,
// per agent (GET), the two settings (PUT, then a round), a round now (POST
// .../reconcile) and the undo (POST .../undo: the wiring off, everything svc
// wrote taken back out). Each answer is the view after the round; a round
// that fails is not an HTTP error, it shows in `last`.
import type { FastifyInstance } from 'fastify';
import { WiringSettingsBody, wiringView, type WiringView } from '../../../shared/gateway-wiring/view.ts';
import { gatewayIdOf } from '../../../shared/teams/delegation-sync.ts';
import type { AppDeps } from '../../deps.ts';
import { objectBody, parseOr400 } from '../validate.ts';

const M = {
  body: 'JSON object body required',
  settings: 'enabled or attach (booleans) required',
} as const;

export function gatewayWiringRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { gatewayWiring: wiring, modelRouting, domain, gatewayLink } = deps;

  const view = async (): Promise<WiringView> => {
    const { read, ledger, want } = wiring.snapshot();
    const routes = (await modelRouting.view()).agents;
    const known = new Map(domain.agents.list({ includeArchived: false }).map((a) => [gatewayIdOf(a), { id: a.id, name: a.name }] as const));
    return wiringView({
      settings: { enabled: wiring.enabled(), attach: wiring.attachEnabled(), routing: modelRouting.enabled() },
      connected: gatewayLink.status().state === 'connected',
      configPath: read?.configPath ?? null,
      filesReachable: read ? read.stateDir !== null : false,
      gatewayAgents: read?.agentIds ?? [],
      want,
      ledger,
      last: wiring.last(),
      routes,
      known,
    });
  };

  app.get('/api/system/gateway-wiring', view);

  app.put('/api/system/gateway-wiring', { config: { badJsonMessage: M.body } }, async (req) => {
    const body = parseOr400(WiringSettingsBody, objectBody(req.body, M.body), M.settings);
    wiring.setSettings(body);
    await wiring.reconcile(body.enabled === false ? 'wiring turned off' : 'wiring settings changed');
    return view();
  });

  app.post('/api/system/gateway-wiring/reconcile', async () => {
    await wiring.reconcile('reconcile requested');
    return view();
  });

  app.post('/api/system/gateway-wiring/undo', async () => {
    wiring.setSettings({ enabled: false });
    await wiring.reconcile('undo requested');
    return view();
  });
}
