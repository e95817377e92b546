// The team-chat worker (issue 17 #1): the team orchestrators and the gateway
// connection they send through, behind the team-chat channel
// (shared/channels/team-chat.ts). It opens its own connection to the
// database, creates the host (which closes runs a crashed predecessor left
// `running`), and then says `ready`. What the host commits and streams is
// posted to the supervisor as channel events.
import { parentPort, workerData } from 'node:worker_threads';
import { serveChannel } from '../../shared/channels/server.ts';
import { TeamChatWorkerData, teamChatContract } from '../../shared/channels/team-chat.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { loadOrCreateDeviceIdentity, type DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { createLogger } from '../../shared/log.ts';
import { createRedactor } from '../../shared/redact.ts';
import { createTeamChatHost, hostHandlers, type TeamChatHost } from '../../shared/team-chat/host.ts';

if (!parentPort) throw new Error('team-chat worker must run in a worker thread');
const port = parentPort;
const data = TeamChatWorkerData.parse(workerData);

// The secrets in play, as the last `configure` sent them: masked in every log line and event row.
let secrets: readonly string[] = [];
const logger = createLogger({ level: data.logLevel, name: 'team-chat', redactor: createRedactor(() => secrets) });
// The commit before a chat.send is on the path of every message: the tail
// worker checkpoints instead (workers/tail/main.ts), off every latency path.
const db = openDatabase(data.dbPath, { migrate: false, autoCheckpoint: false });
let identity: DeviceIdentity | null = null;

// The channel serves first, so the host's recovery can already emit its rows
// and statuses; requests arrive only after `ready`, when the host exists.
let host: TeamChatHost | null = null;
const theHost = (): TeamChatHost => {
  if (!host) throw new Error('team-chat worker is not ready');
  return host;
};
const handlers = hostHandlers(theHost);
const server = serveChannel(teamChatContract, port, {
  ...handlers,
  configure: (p) => {
    secrets = p.secrets;
    return handlers.configure(p);
  },
  shutdown: async () => {
    await host?.close();
    server.dispose();
    db.close();
    setImmediate(() => port.close());
    return {};
  },
});

host = createTeamChatHost({
  db,
  logger,
  identity: () => (identity ??= loadOrCreateDeviceIdentity(data.deviceIdentityFile)),
  version: data.version,
  turnBound: data.turnBound,
  idleMs: data.idleMs,
  runTimeoutMs: data.runTimeoutMs,
  reconnectWaitMs: data.reconnectWaitMs,
  budgetPolicy: { warnPct: data.budgetWarnPct, hardCapUsdCents: data.budgetHardCapUsdCents },
  emit: (event, payload) => server.emit(event, payload),
});
server.emit('ready', {});
