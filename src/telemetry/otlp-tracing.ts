// The OpenTelemetry SDK set up to send a run's spans over OTLP/HTTP (protobuf or JSON). Loaded
// with a dynamic import only when tracing is on, so a run without it never loads these packages.
import type { TracerProvider as ApiTracerProvider } from '@opentelemetry/api';
import { envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { settleWithin } from '../core/settle-within.js';
import type { OtlpConfig } from './otlp-config.js';

/**
 * How long the exit waits for the last spans. The exporter's own timeout (10 s by default, and
 * retries) would hold every run that long when the collector drops packets; tracing must not.
 */
export const EXIT_EXPORT_LIMIT_MS = 1_000;

export interface OtlpTracing {
  tracerProvider: ApiTracerProvider;
  /** Sends what is left and stops; resolves (never rejects) once done or given up. */
  shutdown(): Promise<void>;
}

export interface StartOtlpTracingOptions {
  config: OtlpConfig;
  serviceVersion: string;
  /** Told once when spans cannot be delivered: one line, no headers, no credentials. */
  warn: (message: string) => void;
}

/** A tracer provider exporting to the configured endpoint; the exporter reads OTEL_* itself. */
export async function startOtlpTracing(options: StartOtlpTracingOptions): Promise<OtlpTracing> {
  const { config } = options;
  const { OTLPTraceExporter } =
    config.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  // One warning per run, whether an export failed or the exit gave up on one.
  let warned = false;
  const warnOnce = (reason: string) => {
    if (!warned) options.warn(`traces could not be sent to ${config.endpoint}: ${reason}`);
    warned = true;
  };
  const exporter = warnOnFailure(new OTLPTraceExporter(), warnOnce);
  // OTEL_RESOURCE_ATTRIBUTES first; the service name and version are warren's to set.
  const resource = resourceFromAttributes(envDetector.detect().attributes ?? {}).merge(
    resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: options.serviceVersion,
    }),
  );
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  return {
    tracerProvider,
    async shutdown() {
      let settled = false;
      const done = tracerProvider.shutdown().then(
        () => (settled = true),
        () => (settled = true),
      );
      await settleWithin(done, { timeoutMs: EXIT_EXPORT_LIMIT_MS });
      if (!settled) warnOnce("no answer within 1 s at exit; the run's spans were dropped");
    },
  };
}

/** The exporter, telling `warn` (which says it once) about failed exports. */
function warnOnFailure(exporter: SpanExporter, warn: (error: string) => void): SpanExporter {
  return {
    export(spans: ReadableSpan[], done) {
      exporter.export(spans, (result) => {
        if (result.error !== undefined || result.code !== 0) {
          warn(result.error?.message.split('\n', 1)[0] ?? 'export failed');
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
