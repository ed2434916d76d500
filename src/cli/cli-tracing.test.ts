// Traces as an operator receives them: the real `warren` process exports to an OTLP/HTTP
// receiver on loopback, in protobuf (decoded with the official .proto files) or JSON; with no
// OTEL_* variable nothing is sent and the OpenTelemetry packages are not even loaded.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWarren } from '../testing/cli-process.js';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../testing/otlp-receiver.js';
import { startSilentServer } from '../testing/silent-server.js';
import { makeTempDir } from '../testing/temp-dir.js';

/** Two children at once; the first starts one of its own (depth 2). */
const TREE_SCRIPT = `
turns:
  - match: { agent: "/^main$/" }
    tool_calls:
      - { name: Agent, input: { description: left, prompt: "Go left." } }
      - { name: Agent, input: { description: right, subagent_type: explore, prompt: "Go right." } }
  - match: { agent: "/^main/Agent#1/general-purpose$/" }
    delay_ms: 20
    tool_calls: [{ name: Agent, input: { description: deeper, subagent_type: explore, prompt: "Go deeper." } }]
  - match: { agent: "/Agent#1/general-purpose/Agent#1/explore$/" }
    tool_calls: [{ name: Glob, input: { pattern: "*.txt" } }]
  - match: { agent: "/Agent#1/general-purpose/Agent#1/explore$/" }
    text: deep done
  - match: { agent: "/^main/Agent#1/general-purpose$/" }
    text: left done
  - match: { agent: "/^main/Agent#2/explore$/" }
    text: right done
    usage: { input: 40, output: 4, cache_read: 60 }
  - match: { agent: "/^main$/" }
    text: both done
`;

let receiver: OtlpReceiver;
let project: string;

beforeEach(async () => {
  receiver = await startOtlpReceiver();
  project = await makeTempDir('warren-trace-');
  await writeFile(join(project, 'tree.yaml'), TREE_SCRIPT);
  await writeFile(join(project, 'notes.txt'), 'notes\n');
});
afterEach(async () => {
  await receiver.close();
});

function warren(env: Record<string, string>, prompt = 'split it', flags: string[] = []) {
  return runWarren(
    [
      '-p',
      prompt,
      ...flags,
      '--model',
      `scripted:${join(project, 'tree.yaml')}`,
      '--cwd',
      project,
      '--session-dir',
      join(project, 'sessions'),
    ],
    { env: { HOME: project, ...env } },
  );
}

const agentSpan = (spans: ReceivedSpan[], path: string) =>
  spans.find((span) => span.attributes['warren.agent.path'] === path)!;
const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) =>
  spans.find((candidate) => candidate.spanId === span.parentSpanId);

function expectTree(spans: ReceivedSpan[]) {
  const main = agentSpan(spans, 'main');
  expect(main).toMatchObject({
    name: 'invoke_agent main',
    parentSpanId: '',
    attributes: expect.objectContaining({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'main',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'tree',
    }),
  });
  const left = agentSpan(spans, 'main/Agent#1/general-purpose');
  const right = agentSpan(spans, 'main/Agent#2/explore');
  const deep = agentSpan(spans, 'main/Agent#1/general-purpose/Agent#1/explore');
  for (const [child, parent] of [
    [left, main],
    [right, main],
    [deep, left],
  ] as const) {
    const tool = parentOf(spans, child)!;
    expect(tool.name).toBe('execute_tool Agent');
    expect(tool.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    expect(tool.parentSpanId).toBe(parent.spanId);
  }
  expect(right.attributes['gen_ai.agent.description']).toBe('right');
  const rightChat = spans.find((span) => span.parentSpanId === right.spanId)!;
  expect(rightChat).toMatchObject({
    name: 'chat tree',
    kind: 3, // CLIENT
    attributes: expect.objectContaining({
      'gen_ai.operation.name': 'chat',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.cache_read.input_tokens': 60,
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.response.finish_reasons': ['stop'],
    }),
  });
  const glob = spans.find((span) => span.name === 'execute_tool Glob')!;
  expect(glob.parentSpanId).toBe(deep.spanId);
  expect(glob.attributes['gen_ai.tool.name']).toBe('Glob');
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  expect(spans.filter((span) => span.name.startsWith('invoke_agent'))).toHaveLength(4);
  expect(spans.filter((span) => span.name.startsWith('chat '))).toHaveLength(7);
}

describe('OpenTelemetry traces from the CLI', () => {
  it('exports the tree over OTLP/HTTP protobuf by default, with the service name and headers', async () => {
    const run = await warren({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'review-bot',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer sk-test-0123456789abcdef',
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests[0]?.contentType).toBe('application/x-protobuf');
    expect(receiver.requests[0]?.headers.authorization).toBe('Bearer sk-test-0123456789abcdef');
    const spans = receiver.spans();
    expect(spans[0]?.resource['service.name']).toBe('review-bot');
    expectTree(spans);
  });

  it('exports the same tree as OTLP/HTTP JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json', async () => {
    const run = await warren({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(run.code).toBe(0);
    expect(receiver.requests[0]?.contentType).toBe('application/json');
    const spans = receiver.spans();
    expect(spans[0]?.resource['service.name']).toBe('warren');
    expectTree(spans);
    expect(JSON.stringify(spans)).not.toContain('Go deeper.');
  });

  it('gives each run of a session its own trace, --resume included, all carrying the session id', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    const first = await warren(env, 'split it', ['--output-format', 'json']);
    expect(first.code).toBe(0);
    const sessionId: string = JSON.parse(first.stdout).session_id;
    const resumed = await warren(env, 'once more', [
      '--output-format',
      'json',
      '--resume',
      sessionId,
    ]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).session_id).toBe(sessionId);
    const agents = receiver.spans().filter((span) => span.name.startsWith('invoke_agent'));
    expect(new Set(agents.map((span) => span.traceId)).size).toBe(2);
    for (const span of agents) {
      expect(span.attributes).toMatchObject({
        'session.id': sessionId,
        'gen_ai.conversation.id': sessionId,
      });
    }
  });

  it('records message contents only with WARREN_OTEL_LOG_CONTENT=1', async () => {
    await warren({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, WARREN_OTEL_LOG_CONTENT: '1' });
    const chats = receiver.spans().filter((span) => span.name.startsWith('chat '));
    expect(
      chats.some((span) => String(span.attributes['gen_ai.input.messages']).includes('Go deeper.')),
    ).toBe(true);
  });

  it('sends nothing and loads no OpenTelemetry package when no OTEL_* variable is set', async () => {
    const hooks = join(project, 'hooks.mjs');
    const log = join(project, 'loaded.log');
    await writeFile(
      hooks,
      `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(log)}, '');
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.includes('@opentelemetry')) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
    return next(specifier, context);
  },
});
`,
    );
    const off = await warren({ NODE_OPTIONS: `--import=${hooks}` });
    expect(off.code).toBe(0);
    expect(receiver.requests).toEqual([]);
    expect(await readFile(log, 'utf8')).toBe('');
    // The same hook sees them when tracing is on: the check above can fail.
    const on = await warren({
      NODE_OPTIONS: `--import=${hooks}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    expect(on.code).toBe(0);
    expect(await readFile(log, 'utf8')).toContain('@opentelemetry/sdk-trace');
  });

  it('warns once, without the headers, when the collector cannot be reached, and still succeeds', async () => {
    const closed = receiver.url;
    await receiver.close();
    receiver = await startOtlpReceiver();
    const run = await warren({
      OTEL_EXPORTER_OTLP_ENDPOINT: closed,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=very-secret-value',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('both done\n');
    expect(run.stderr).toMatch(
      /^warren: warning: traces could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: .+\n$/,
    );
    expect(run.stderr).not.toContain('very-secret-value');
  });

  it('adds at most a second at exit when the collector never answers, and warns once', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const run = await warren({ OTEL_EXPORTER_OTLP_ENDPOINT: silent.url });
      const seconds = (Date.now() - started) / 1000;
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('both done\n');
      expect(run.stderr).toBe(
        `warren: warning: traces could not be sent to ${silent.url}/v1/traces: no answer within 1 s at exit; the run's spans were dropped\n`,
      );
      // The exporter's own timeout is 10 s: without the bound at exit the run takes that long.
      expect(seconds).toBeLessThan(6);
    } finally {
      await silent.close();
    }
  });

  it('refuses a protocol it cannot speak, naming the variable and the fix (exit 2)', async () => {
    const run = await warren({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'warren: OTEL_EXPORTER_OTLP_PROTOCOL: unsupported protocol "grpc" (use http/protobuf (the default) or http/json; for a gRPC-only collector, use its OTLP/HTTP port (4318))\n',
    );
    const badUrl = await warren({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^warren: OTEL_EXPORTER_OTLP_ENDPOINT: must be an http\(s\) URL/);
  });
});
