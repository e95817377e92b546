// Where OTLP/HTTP traces go, by the OpenTelemetry rule: the traces endpoint
// (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is used as is; the generic endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT) gets `/v1/traces` appended. The values come
// from shared/config.ts, the one reader of the environment.

export type TracesUrl = { ok: true; url: string } | { ok: false; reason: string } | null;

/** The URL to POST traces to; null when export is off; not ok for a value that is not an http(s) URL. */
export function otlpTracesUrl(cfg: { otlpEndpoint: string | null; otlpTracesEndpoint: string | null }): TracesUrl {
  const traces = cfg.otlpTracesEndpoint?.trim() || null;
  const generic = cfg.otlpEndpoint?.trim() || null;
  const url = traces ?? (generic ? `${generic.replace(/\/+$/, '')}/v1/traces` : null);
  if (url === null) return null;
  if (!URL.canParse(url)) return { ok: false, reason: 'not a URL' };
  const protocol = new URL(url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return { ok: false, reason: `unsupported scheme ${protocol}` };
  return { ok: true, url };
}
