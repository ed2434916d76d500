// Whether and how to export traces, read from the standard OTEL_* variables. Only reads the
// environment: the OpenTelemetry packages are loaded (otlp-tracing.ts) only when this says on.
import { ConfigError } from '../core/config-error.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpConfig {
  protocol: OtlpProtocol;
  serviceName: string;
  /** Where spans go, for messages (the exporter reads the variables itself); no credentials. */
  endpoint: string;
  /** `WARREN_OTEL_LOG_CONTENT=1`: prompts, replies and tool input/output on the spans. */
  logContent: boolean;
}

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];
const DEFAULT_ENDPOINT = 'http://localhost:4318/v1/traces';

/**
 * The export settings, or undefined when tracing is off: on when `OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_TRACES_EXPORTER=otlp` is set, off with
 * `OTEL_TRACES_EXPORTER=none` or `OTEL_SDK_DISABLED=true`.
 * @throws ConfigError naming the variable for a value warren cannot use.
 */
export function otlpConfig(env: NodeJS.ProcessEnv = process.env): OtlpConfig | undefined {
  const get = (name: string) => env[name]?.trim() || undefined;
  if (get('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporters = (get('OTEL_TRACES_EXPORTER') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (exporters.includes('none')) return undefined;
  const unsupported = exporters.filter((name) => name !== 'otlp');
  if (unsupported.length > 0) {
    throw new ConfigError(
      'OTEL_TRACES_EXPORTER',
      `warren cannot export traces with "${unsupported.join(',')}"`,
      'set it to otlp (with OTEL_EXPORTER_OTLP_ENDPOINT), or none, or unset it',
    );
  }
  const tracesEndpoint = get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = get('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (!tracesEndpoint && !baseEndpoint && exporters.length === 0) return undefined;

  const protocolVariable = get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = get(protocolVariable) ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError(
      protocolVariable,
      `unsupported protocol "${protocol}"`,
      `use ${PROTOCOLS.join(' (the default) or ')}; for a gRPC-only collector, use its OTLP/HTTP port (4318)`,
    );
  }
  const endpoint = tracesEndpoint
    ? checkUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
    : baseEndpoint
      ? `${checkUrl('OTEL_EXPORTER_OTLP_ENDPOINT', baseEndpoint).replace(/\/$/, '')}/v1/traces`
      : DEFAULT_ENDPOINT;
  const logContent = get('WARREN_OTEL_LOG_CONTENT');
  return {
    protocol: protocol as OtlpProtocol,
    serviceName: get('OTEL_SERVICE_NAME') ?? 'warren',
    endpoint,
    logContent: logContent === '1' || logContent?.toLowerCase() === 'true',
  };
}

/** The URL as given, or a ConfigError; what messages show of it carries no credentials. */
function checkUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, 'is not a URL', 'e.g. http://localhost:4318');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      variable,
      `must be an http(s) URL, got ${url.protocol}`,
      'e.g. http://localhost:4318',
    );
  }
  url.username = '';
  url.password = '';
  url.search = '';
  return url.toString();
}
