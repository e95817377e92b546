// The board feature's public surface (its server state is api/board.ts and api/workboard.ts).
export { applyBoardFrame, useBoardStream } from './use-board-stream.ts';
export { TaskCard, type TaskCardProps } from './TaskCard.tsx';
export { allowedMoves, isTaskStatus, STATUS_LABEL, STATUSES, TRANSITIONS } from './statuses.ts';
