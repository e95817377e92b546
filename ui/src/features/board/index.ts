// The board feature's public surface.
export { applyBoardFrame, boardKey, BOARD_LIMIT, fetchBoard, taskKey, useBoard } from './useBoard.ts';
export { TaskCard, type TaskCardProps } from './TaskCard.tsx';
export { allowedMoves, isTaskStatus, STATUS_LABEL, STATUSES, TRANSITIONS } from './statuses.ts';
