// Pure rules of the settings page: the gateway URL check (the server's own
// rule and message, so a person sees it before sending) and how a health
// check reads.
import type { BootReport, CheckResult } from '../../api/types.ts';

/** The spec's message for a gateway URL that is not ws:// or wss://. */
export const BAD_GATEWAY_URL = 'gatewayUrl must be a ws:// or wss:// URL';

/** null when the server would accept it: empty (back to the default) or a ws:/wss: URL, after trimming. */
export function checkGatewayUrl(input: string): string | null {
  const s = input.trim();
  if (s === '') return null;
  try {
    const { protocol } = new URL(s);
    return protocol === 'ws:' || protocol === 'wss:' ? null : BAD_GATEWAY_URL;
  } catch {
    // Not a URL at all.
    return BAD_GATEWAY_URL;
  }
}

export type CheckLevel = 'ok' | 'degraded' | 'fatal';

export function checkLevel(check: Pick<CheckResult, 'id' | 'ok'>, report: Pick<BootReport, 'fatal'>): CheckLevel {
  if (check.ok) return 'ok';
  return report.fatal.includes(check.id) ? 'fatal' : 'degraded';
}

/** One line for the whole report. */
export function healthSummary(report: Pick<BootReport, 'fatal' | 'degraded'>): { level: CheckLevel; text: string } {
  if (report.fatal.length > 0) return { level: 'fatal', text: `Not working: ${report.fatal.join(', ')} failed. svc cannot run properly until this is fixed.` };
  if (report.degraded.length > 0) return { level: 'degraded', text: `Working with problems: ${report.degraded.join(', ')}.` };
  return { level: 'ok', text: 'All checks pass.' };
}
