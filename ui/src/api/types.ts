// The server's answer shapes the dashboard reads, as types derived from the
// zod schemas in shared/ (type-only imports: no schema code reaches the
// bundle). Add a line here when a page needs another shape; never redeclare
// one by hand.
export type { SystemStatus } from '../../../shared/channels/gateway-host.ts';
