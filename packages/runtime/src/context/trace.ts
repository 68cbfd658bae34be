/** The trace an invocation belongs to. */
export interface TraceInfo {
  /** X-Ray trace id (`1-5759e988-bd862e3fe1be46a994272793`) or W3C trace id (32 hex characters). */
  readonly traceId: string;
}

const ROOT = /(?:^|;)\s*Root=([^;\s]+)/;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** `Root=1-abc;Parent=..;Sampled=1` → `1-abc`. */
export function traceIdFromAmznHeader(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return ROOT.exec(value)?.[1];
}

/** W3C `traceparent: 00-<trace id>-<parent id>-<flags>` → trace id; W3C Trace Context declares the all-zero id invalid. */
export function traceIdFromTraceparent(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const id = TRACEPARENT.exec(value.trim().toLowerCase())?.[1];
  return id && !/^0+$/.test(id) ? id : undefined;
}

/**
 * The trace of a request: `X-Amzn-Trace-Id` (set by the gateway and by X-Ray), else `traceparent`, else the
 * `_X_AMZN_TRACE_ID` variable Lambda sets per invocation. `headers` must have lower-case names.
 */
export function traceFromHeaders(headers: Readonly<Record<string, string | undefined>>): TraceInfo | undefined {
  const traceId =
    traceIdFromAmznHeader(headers['x-amzn-trace-id']) ??
    traceIdFromTraceparent(headers['traceparent']) ??
    traceIdFromAmznHeader(process.env['_X_AMZN_TRACE_ID']);
  return traceId ? { traceId } : undefined;
}
