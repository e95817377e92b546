// The variable names svc owns in the gateway's .env and its vault (issue 31
// item 6): model tokens (`SVC_MODEL_TOKEN_*`), MCP bindings
// (`SVC_MCP_BINDING_*`), every other `SVC_*` name and svc's own secrets, and
// the gateway's own token. A provider entry in openclaw.json that names one
// as its key (`"apiKey": "${SVC_MODEL_TOKEN_BOB}"`) or in a header would have
// svc send that credential to the provider: such an upstream is not routed.
import { isSvcOwnEnvName } from '../config.ts';

const GATEWAY_SECRETS: ReadonlySet<string> = new Set(['OPENCLAW_GATEWAY_TOKEN', 'OPENCLAW_GATEWAY_PASSWORD']);

/** Whether `name` is svc's (or the gateway's own credential), never a provider key (case-insensitive, as the gateway reads .env). */
export function isSvcOwnedKeyName(name: string): boolean {
  return isSvcOwnEnvName(name) || GATEWAY_SECRETS.has(name.toUpperCase());
}
