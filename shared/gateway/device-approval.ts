// POST /api/system/approve-device's answer when svc's own pending pairing
// request was approved (spec "approve-device"; issue 15 #8). The gateway-host
// worker runs the CLI and reports an ApproveResult
// (shared/channels/gateway-host.ts); supervisor/http/routes/system.ts turns
// its `approved` outcome into this, the CLI's output redacted, and every
// other outcome into an error.
import { z } from 'zod';

export const ApproveDeviceResult = z.object({
  ok: z.literal(true),
  /** The pending request approved: svc's own device's, never `--latest`. */
  requestId: z.string(),
  /** What the CLI printed, redacted. */
  output: z.string(),
});
export type ApproveDeviceResult = z.infer<typeof ApproveDeviceResult>;
