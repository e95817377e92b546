// The gateway's Workboard as svc holds it (issue 23 item 5): a cache of the
// cards read with `workboard.cards.list` on svc's own gateway connection,
// re-read when the gateway says the board changed (`plugin.workboard.changed`,
// which carries only a revision), when the connection comes (back) up, and
// after svc's own writes. "Enabled" means the last read succeeded: a gateway
// without the plugin answers `unknown method`, a gateway svc is not connected
// to cannot answer; both are `enabled: false`, never an error, and are logged
// at debug only (the board polls every few seconds). Moves and dispatches go
// to the gateway's own methods; the rules of what svc refuses before asking
// are in shared/workboard/view.ts.
import type { AgentStore } from '../../shared/agents/store.ts';
import { conflict, messageOf, notFound } from '../../shared/errors.ts';
import { isUnreachable } from '../../shared/exec/gateway-policy.ts';
import type { GatewayConnection } from '../../shared/gateway/connection.ts';
import type { Logger } from '../../shared/log.ts';
import type { TeamStore } from '../../shared/teams/store.ts';
import { CardReply, WORKBOARD_MESSAGES as M, type GatewayCard, type WorkboardCard, type WorkboardView } from '../../shared/workboard/schemas.ts';
import { ownerLookup } from '../../shared/workboard/teams.ts';
import { checkDispatch, checkMove, DISABLED, requireCard, snapshotOf, toCard, toView, type WorkboardSnapshot } from '../../shared/workboard/view.ts';

export interface WorkboardService {
  /** GET /api/workboard (`teamId`: only the cards of that team's agents). */
  view(teamId?: string): Promise<WorkboardView>;
  /** Moves a card to another of Workboard's statuses (`workboard.cards.move`). */
  move(id: string, status: string): Promise<WorkboardCard>;
  /** Starts a ready card as its agent's sub-agent run (`workboard.cards.start`). */
  dispatch(id: string): Promise<WorkboardCard>;
}

export interface WorkboardServiceDeps {
  connection: Pick<GatewayConnection, 'on' | 'onStatus' | 'status' | 'request'>;
  domain: { agents: Pick<AgentStore, 'list'>; teams: Pick<TeamStore, 'list'> };
  logger: Logger;
  now?: () => number;
}

export const WORKBOARD_EVENT = 'plugin.workboard.changed';
const READ = { timeoutMs: 10_000, waitMs: 0 } as const;
const WRITE = { timeoutMs: 30_000, waitMs: 0 } as const;
/** How long "no Workboard" holds before svc asks again: enabling the plugin on a running gateway (hot reload) sends svc no event. */
export const DISABLED_RECHECK_MS = 5_000;
/** An enabled board is re-read after this long even without an event: disabling the plugin sends none either. */
export const MAX_AGE_MS = 30_000;

/** The gateway's answer to a method it does not have (plugin off): `INVALID_REQUEST` "unknown method: …". */
const isUnknownMethod = (err: unknown) => /^unknown method\b/i.test(messageOf(err));

export function createWorkboardService({ connection, domain, logger: parent, now = Date.now }: WorkboardServiceDeps): WorkboardService {
  const logger = parent.child({ component: 'workboard' });
  let snapshot: WorkboardSnapshot = DISABLED;
  let readAt = Number.NEGATIVE_INFINITY;
  let dirty = true;
  let reading: Promise<WorkboardSnapshot> | null = null;
  /** Bumps when the connection comes up or goes down: a read that started before is not kept. */
  let epoch = 0;
  /** The last read failure worth a warning; warned once per new problem, not on every poll. */
  let problem: string | null = null;

  const connected = () => connection.status().state === 'connected';
  const note = (next: string | null) => {
    if (next !== null && next !== problem) logger.warn(next);
    problem = next;
  };

  const readOnce = async (): Promise<WorkboardSnapshot> => {
    let reply: unknown;
    try {
      reply = await connection.request('workboard.cards.list', {}, READ);
    } catch (err) {
      if (isUnknownMethod(err) || isUnreachable(err)) {
        logger.debug({ why: messageOf(err) }, 'no Workboard on the gateway');
        note(null);
      } else {
        note(`workboard.cards.list failed: ${messageOf(err)}`);
      }
      return DISABLED;
    }
    const parsed = snapshotOf(reply);
    if (!parsed) {
      note('the gateway answered workboard.cards.list with something svc cannot read');
      return DISABLED;
    }
    if (parsed.skipped > 0) logger.debug({ skipped: parsed.skipped }, 'Workboard cards svc cannot read were left out');
    note(null);
    return parsed.snapshot;
  };

  // One read at a time; a change seen while one is under way reads again after it.
  const refresh = (): Promise<WorkboardSnapshot> => {
    reading ??= (async () => {
      try {
        do {
          dirty = false;
          const at = epoch;
          const next = await readOnce();
          if (at === epoch) {
            snapshot = next;
            readAt = now();
          }
        } while (dirty && connected());
        return snapshot;
      } finally {
        reading = null;
      }
    })();
    return reading;
  };

  const current = (): Promise<WorkboardSnapshot> => {
    if (!connected()) return Promise.resolve(DISABLED);
    const maxAge = snapshot.enabled ? MAX_AGE_MS : DISABLED_RECHECK_MS;
    if (dirty || reading !== null || now() - readAt > maxAge) return refresh();
    return Promise.resolve(snapshot);
  };

  /** The card from the cache, read again once when it is not there (created since the last read). */
  const find = async (id: string): Promise<{ card: GatewayCard; snapshot: WorkboardSnapshot }> => {
    const s = await current();
    if (s.enabled && !s.cards.some((c) => c.id === id)) {
      dirty = true;
      const again = await current();
      return { card: requireCard(again, id), snapshot: again };
    }
    return { card: requireCard(s, id), snapshot: s };
  };

  const owner = () => ownerLookup(domain.agents.list(), domain.teams.list(true).teams);

  /** A write on the gateway; its refusal is a 409 with the gateway's words (redacted by the front door). */
  const write = async (method: string, id: string, params: Record<string, unknown>): Promise<WorkboardCard> => {
    let reply: unknown;
    try {
      reply = await connection.request(method, { id, ...params }, WRITE);
    } catch (err) {
      dirty = true;
      if (isUnknownMethod(err) || isUnreachable(err)) throw conflict(M.disabled);
      if (/^card not found\b/i.test(messageOf(err))) throw notFound(M.notFound);
      throw conflict(messageOf(err));
    }
    dirty = true;
    const r = CardReply.safeParse(reply);
    if (r.success) return toCard(r.data.card, owner());
    // The write went through; the card is read back instead of trusting an answer svc cannot parse.
    logger.debug({ method }, 'unexpected Workboard reply; reading the card back');
    return toCard(requireCard(await current(), id), owner());
  };

  let wasConnected = false;
  connection.onStatus((s) => {
    const up = s.state === 'connected';
    if (up === wasConnected) return;
    wasConnected = up;
    epoch++;
    dirty = true;
    snapshot = DISABLED;
    if (up) void refresh();
  });
  connection.on(WORKBOARD_EVENT, () => {
    dirty = true;
    if (connected()) void refresh();
  });

  return {
    async view(teamId) {
      return toView(await current(), owner(), teamId);
    },
    async move(id, status) {
      checkMove(await current(), status);
      await find(id);
      return write('workboard.cards.move', id, { status });
    },
    async dispatch(id) {
      checkDispatch((await find(id)).card);
      return write('workboard.cards.start', id, {});
    },
  };
}
