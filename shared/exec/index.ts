// Exec settings and standing exec grants (spec "Smaller resources").
export { readApprovalsDocument, type DocumentCounts, type DocumentRead } from './allowlist-reader.ts';
export { readAgentAllowlist, gatewayBucketOf, WILDCARD_BUCKET, type AllowlistEntryView, type AllowlistView } from './allowlist-view.ts';
export { GATEWAY_TIMEOUTS, getApprovals, setApprovals, type GatewayCall } from './gateway-policy.ts';
export { entryKey, nodeMarkerPatterns, KEY_HEX_LENGTH } from './key.ts';
export { createLastReadStore, type LastReadStore } from './last-read.ts';
export { planRevoke, type RevokePlan } from './revoke-plan.ts';
export { revokeGrants, type RevokeOutcome } from './revoke.ts';
export { saveExecSettings, type SaveSettingsOutcome } from './save-settings.ts';
export { createExecSettingsStore, type ExecConfig, type ExecSettingsStore } from './settings-store.ts';
export { EXEC_ASK_VALUES } from './schemas.ts';
