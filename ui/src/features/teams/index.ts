// The teams feature's public surface: the team dialogs, a team's row and the
// saved-text field of its settings (its server state is api/teams.ts).
export { CreateTeamDialog } from './CreateTeamDialog.tsx';
export { DeleteTeamDialog } from './DeleteTeamDialog.tsx';
export { ImportTeamDialog } from './ImportTeamDialog.tsx';
export { RenameTeamDialog } from './RenameTeamDialog.tsx';
export { TeamRow, type TeamRowProps } from './TeamRow.tsx';
export { TextSetting, type TextSave, type TextSettingProps } from './TextSetting.tsx';
export { countLabel, overCap, TEXT_CAP } from './text-limit.ts';
