// A W3C `traceparent` a caller sent (an MCP `_meta`, an A2A header or metadata) as the context a
// run's spans continue: its main agent's span becomes a child of the caller's span. Anything
// that is not a well-formed, non-zero traceparent is ignored: the run starts its own trace.
import { type Context, ROOT_CONTEXT, trace } from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function remoteParentContext(traceparent: string | undefined): Context | undefined {
  const match = TRACEPARENT.exec(traceparent?.trim() ?? '');
  if (!match) return undefined;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
  });
}
