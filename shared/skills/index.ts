// Skills (spec "Smaller resources" → "Skills"): the injection scan, the
// input schemas and the store with its install rule.
export {
  EXCERPT_MAX,
  MAX_FINDINGS,
  SCANNED_FIELDS,
  SCAN_RULES,
  excerptOf,
  fingerprintOf,
  scanSkill,
  visibleText,
  type Finding,
  type ScanInput,
  type ScanRule,
  type ScannedField,
} from './injection-scan.ts';
export {
  AgentIdsSchema,
  SKILL_MESSAGES,
  SkillDeleteQuery,
  SkillInstallSchema,
  SkillListQuery,
  SkillScanJobArg,
  SkillScanJobResult,
  type InstallOutcome,
  type RemoveOutcome,
  type ScanOutcome,
  type Skill,
  type SkillInstall,
} from './schemas.ts';
export { bodyFingerprint, createSkillStore, type InstallResult, type RemoveResult, type SkillStore, type SkillStoreOptions } from './store.ts';
