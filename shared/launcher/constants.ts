// Fixed numbers of the launcher contract (spec "Command-line launcher"), in
// one place so the commands and the tests agree on them.
export const GATEWAY_PORT = 18789;
export const DEFAULT_PORT = 18790;
export const PORT_SCAN_COUNT = 20;
export const POLL_INTERVAL_MS = 500;
export const POLL_ATTEMPTS = 90;
/** How long `stop` watches the port after SIGTERM before force-killing. */
export const STOP_GRACE_MS = 4000;
