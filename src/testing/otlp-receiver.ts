// Test fixture: an OTLP/HTTP trace receiver on loopback, as a collector would be. It decodes
// protobuf exports with the official .proto files (protobufjs) and JSON exports as they come,
// into one simple span shape, so tests can read what a real collector would have received.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO_ROOT = fileURLToPath(
  new URL('./fixtures/vendor/opentelemetry-proto/', import.meta.url),
);

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** `''` for a root span. */
  parentSpanId: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  startMs: number;
  endMs: number;
  /** Attributes of the resource the span came with (`service.name`, …). */
  resource: Record<string, unknown>;
}

export interface ExportRequest {
  contentType: string;
  headers: IncomingHttpHeaders;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: give it as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  requests: ExportRequest[];
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };
type RawSpan = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind?: number;
  attributes?: KeyValue[];
  status?: { code?: number };
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
};
type RawRequest = {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ spans?: RawSpan[] }>;
  }>;
};

let requestType: protobuf.Type | undefined;

function exportRequestType(): protobuf.Type {
  if (requestType) return requestType;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => `${PROTO_ROOT}${target}`;
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto');
  requestType = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  return requestType;
}

/** Protobuf bytes fields as lower-case hex, as OTLP/JSON writes them. */
function decodeProtobuf(body: Buffer): RawRequest {
  const type = exportRequestType();
  return type.toObject(type.decode(body), {
    longs: String,
    enums: Number,
    bytes: String,
    defaults: false,
  }) as RawRequest;
}

function hex(id: string | undefined, binary: boolean): string {
  if (!id) return '';
  return binary ? Buffer.from(id, 'base64').toString('hex') : id.toLowerCase();
}

function plainValue(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plainValue(value)]));
}

function spansOf(request: RawRequest, binary: boolean): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        traceId: hex(span.traceId, binary),
        spanId: hex(span.spanId, binary),
        parentSpanId: hex(span.parentSpanId, binary),
        kind: span.kind ?? 0,
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
        startMs: Number(BigInt(span.startTimeUnixNano ?? 0) / 1_000_000n),
        endMs: Number(BigInt(span.endTimeUnixNano ?? 0) / 1_000_000n),
        resource,
      })),
    );
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ExportRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const contentType = request.headers['content-type'] ?? '';
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    const binary = contentType.includes('protobuf');
    const decoded = binary ? decodeProtobuf(body) : (JSON.parse(body.toString()) as RawRequest);
    requests.push({ contentType, headers: request.headers, spans: spansOf(decoded, binary) });
    // An empty ExportTraceServiceResponse: no partial failure.
    if (binary) response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () => requests.flatMap((request) => request.spans),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
