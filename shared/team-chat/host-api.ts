// What the team-chat host answers: one method per request of the team-chat
// channel (shared/channels/team-chat.ts), each signature derived from its
// contract, and the one handler table that serves a host on that channel.
// Its own file so the host (host.ts) and the places that serve it (the
// worker, the supervisor's in-thread channel) share the shape, not the code.
import type { PayloadOf, ResultOf } from '../channels/contract.ts';
import type { Handlers } from '../channels/server.ts';
import type { teamChatContract } from '../channels/team-chat.ts';

type C = typeof teamChatContract;
/** One request of the channel as the host answers it: the contract's payload in, its result out, at once. */
type Answer<M extends keyof C['requests']> = (payload: PayloadOf<C, M>) => ResultOf<C, M>;

/**
 * The host answers the team-chat channel's requests (shared/channels/team-chat.ts
 * says what each does); every signature here is derived from that contract,
 * and hostHandlers() below is the one table that serves it.
 */
export interface TeamChatHost {
  configure: Answer<'configure'>;
  ingest: Answer<'ingest'>;
  stop(payload: PayloadOf<C, 'stop'>): Promise<ResultOf<C, 'stop'>>;
  boardChanged: Answer<'boardChanged'>;
  exchange: Answer<'exchange'>;
  haltForBudget: Answer<'haltForBudget'>;
  stats(payload?: PayloadOf<C, 'stats'>): ResultOf<C, 'stats'>;
  /** Closes the gateway connection; runs in flight are not aborted (the next start's recovery closes their rows). */
  close(): Promise<void>;
}

/**
 * The channel's handler table over a host, checked against the contract at
 * compile time: the worker serves it (workers/team-chat/main.ts), and so does
 * the supervisor's in-thread channel, so both cross the same validation.
 * `shutdown` is the server's own (it ends the thread).
 */
export function hostHandlers(host: () => TeamChatHost): Omit<Handlers<C>, 'shutdown'> {
  return {
    configure: (p) => host().configure(p),
    ingest: (p) => host().ingest(p),
    stop: (p) => host().stop(p),
    boardChanged: (p) => host().boardChanged(p),
    exchange: (p) => host().exchange(p),
    haltForBudget: (p) => host().haltForBudget(p),
    stats: (p) => host().stats(p),
  };
}
