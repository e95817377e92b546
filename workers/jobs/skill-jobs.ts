// The skill injection scan for the piscina pool (issue 15 #3): a 2 MB body
// scans in tens to hundreds of milliseconds, which the front door's event loop
// must not spend. The pool stops the thread when the scan runs past its time
// limit (SVC_SKILL_SCAN_TIMEOUT_MS); the install is then refused.
import type { JobArg } from '../../shared/channels/jobs.ts';
import { scanSkill, type Finding } from '../../shared/skills/injection-scan.ts';

/** The argument was parsed with the contract's schema (main.ts); the supervisor parses the findings it gets back. */
export function skillScan(input: JobArg<'skillScan'>): Finding[] {
  return scanSkill(input);
}
