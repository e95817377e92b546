// The skill injection scan for the piscina pool (issue 15 #3): a 2 MB body
// scans in tens to hundreds of milliseconds, which the front door's event loop
// must not spend. The pool stops the thread when the scan runs past its time
// limit (SVC_SKILL_SCAN_TIMEOUT_MS); the install is then refused.
import { scanSkill, type Finding } from '../../shared/skills/injection-scan.ts';
import { SkillScanJobArg } from '../../shared/skills/schemas.ts';

// What the supervisor sends is validated here because it crossed a thread;
// the supervisor validates the findings it gets back.
export function skillScan(arg: unknown): Finding[] {
  return scanSkill(SkillScanJobArg.parse(arg));
}
