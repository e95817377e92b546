// From what the gateway's Workboard holds to what svc serves and the rules of
// svc's two writes (move, dispatch). Pure: the service
// (supervisor/services/workboard-service.ts) holds the cache and calls the
// gateway; these functions decide what a card looks like and which request
// is refused with what (DomainErrors, mapped in one place by the front door).
import { conflict, invalid, notFound } from '../errors.ts';
import { columnOf } from './columns.ts';
import { CardsListReply, GatewayCard, WORKBOARD_MESSAGES as M, type WorkboardCard, type WorkboardView } from './schemas.ts';
import type { OwnerLookup } from './teams.ts';

/** What svc last read from the gateway's Workboard. */
export interface WorkboardSnapshot {
  enabled: boolean;
  cards: GatewayCard[];
  statuses: string[];
}

export const DISABLED: WorkboardSnapshot = Object.freeze({ enabled: false, cards: [], statuses: [] }) as WorkboardSnapshot;

/** A `workboard.cards.list` reply as a snapshot; null when it is not one. Cards svc cannot read are left out (counted). */
export function snapshotOf(reply: unknown): { snapshot: WorkboardSnapshot; skipped: number } | null {
  const r = CardsListReply.safeParse(reply);
  if (!r.success) return null;
  const cards: GatewayCard[] = [];
  for (const raw of r.data.cards) {
    const c = GatewayCard.safeParse(raw);
    if (c.success) cards.push(c.data);
  }
  return { snapshot: { enabled: true, cards, statuses: r.data.statuses }, skipped: r.data.cards.length - cards.length };
}

export function toCard(c: GatewayCard, owner: OwnerLookup): WorkboardCard {
  const who = c.agentId ? owner(c.agentId) : null;
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    column: columnOf(c.status),
    agentId: who?.agentId ?? null,
    teamIds: who?.teamIds ?? [],
    sessionKey: c.sessionKey ?? c.execution?.sessionKey ?? null,
    runId: c.runId ?? c.execution?.runId ?? null,
    source: 'workboard',
    updatedAt: c.updatedAt ?? null,
  };
}

/** GET /api/workboard: every card, or those of one team's agents. */
export function toView(s: WorkboardSnapshot, owner: OwnerLookup, teamId?: string): WorkboardView {
  if (!s.enabled) return { enabled: false, cards: [], statuses: [] };
  const cards = s.cards.map((c) => toCard(c, owner));
  return { enabled: true, cards: teamId === undefined ? cards : cards.filter((c) => c.teamIds.includes(teamId)), statuses: [...s.statuses] };
}

/** Refuses a move svc can tell is wrong before asking the gateway. */
export function checkMove(s: WorkboardSnapshot, status: string): void {
  if (!s.enabled) throw conflict(M.disabled);
  if (!s.statuses.includes(status)) throw invalid(M.unknownStatus);
}

/** Refuses a dispatch of a card that is not `ready` (Workboard's dispatch starts ready cards only). */
export function checkDispatch(card: GatewayCard): void {
  if (card.status !== 'ready') throw conflict(`${M.notReady} (this one is ${card.status})`);
}

/** The card, or 404. */
export function requireCard(s: WorkboardSnapshot, id: string): GatewayCard {
  if (!s.enabled) throw conflict(M.disabled);
  const card = s.cards.find((c) => c.id === id);
  if (!card) throw notFound(M.notFound);
  return card;
}
