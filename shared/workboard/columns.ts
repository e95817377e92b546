// Which svc board column a Workboard status shows in. Workboard has nine
// statuses (`triage backlog todo scheduled ready running review blocked done`,
// docs/gateway-facts.md, "Workboard"), svc's board six columns; nothing
// started yet is "To do", a running card "In progress", a card waiting for its
// reviewer "In review". A status a later gateway adds shows under "To do"
// until svc learns it: the card is still shown, with its own status on it.
import type { TaskStatus } from '../board/types.ts';

const COLUMNS: Readonly<Record<string, TaskStatus>> = {
  triage: 'todo',
  backlog: 'todo',
  todo: 'todo',
  scheduled: 'todo',
  ready: 'todo',
  running: 'in_progress',
  review: 'in_review',
  blocked: 'blocked',
  done: 'done',
};

export function columnOf(status: string): TaskStatus {
  return Object.hasOwn(COLUMNS, status) ? (COLUMNS[status] as TaskStatus) : 'todo';
}
