// The chat feature's public surface: the stream's frames, the reducer, the
// mention rule and the history merge (plain .ts; the page is pages/team-chat).
export { parseDeltaFrame, parseRowFrame, parseStatusFrame, toEntry, type DeltaFrame, type RowFrame, type StatusFrame } from './stream-parse.ts';
export {
  anyoneRunning, chatReducer, hasEarlier, initialChatState, RENDER_LIMIT, transcriptItems,
  type ChatAction, type ChatState, type LiveBubble, type Notice, type PendingSend, type TranscriptItem,
} from './chat-state.ts';
export {
  agentIdOfChildKey, formatUsd, groupDelegations, handoversOf, isHandover, isRefusedSpawn, openChildKeys,
  type ChatItem, type DelegationView, type GroupInput, type Handover, type HandoverStatus,
} from './delegation.ts';
export { applyMention, leadingMention, mentionOptions, mentionQuery, type Mentionable } from './mention.ts';
// The session-key rule is the server's own file (it has no imports).
export { agentIdOfTeamSessionKey, teamFallbackSessionKey, teamSessionKey } from '../../../../shared/team-chat/session-keys.ts';
export { addPage, compareEntries, hasOlder, keysToFetch, reveal, startPaging, type KeyPaging, type Paging } from './transcript-merge.ts';
