// One trace across processes: a `kind: acp` child (`warren acp`) and a `kind: remote` child
// (`warren a2a serve`) continue the parent's trace from the traceparent warren sends them (ACP's
// `_meta`, A2A's HTTP header), all exporting to one OTLP receiver on loopback.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeEnv, runWarren, WARREN_BIN } from '../testing/cli-process.js';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../testing/otlp-receiver.js';
import { servedProject, serveWarren, writeRemoteDefinition } from '../testing/served-project.js';
import { makeTempDir } from '../testing/temp-dir.js';

let receiver: OtlpReceiver;
let caller: string;
let home: string;

beforeEach(async () => {
  receiver = await startOtlpReceiver();
  caller = await makeTempDir('warren-traces-caller-');
  home = await makeTempDir('warren-traces-home-');
});

afterEach(async () => {
  await receiver.close();
});

/** Waits until `found` finds a span the receiver got (exports arrive as processes end). */
async function spanWhere(found: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
  for (const end = Date.now() + 15_000; Date.now() < end; await delay(100)) {
    const span = receiver.spans().find(found);
    if (span) return span;
  }
  throw new Error(
    `no such span among ${receiver
      .spans()
      .map((span) => span.name)
      .join(', ')}`,
  );
}

/** The caller's scripted model: the main agent calls `subagent_type`, then ends. */
async function callerScript(subagentType: string, prompt: string): Promise<string> {
  const script = join(home, 'outer.json');
  const turns = [
    {
      match: { agent: '/^main$/' },
      tool_calls: [
        { name: 'Agent', input: { description: 'away', subagent_type: subagentType, prompt } },
      ],
    },
    { match: { agent: '/^main$/' }, text: 'done' },
  ];
  await writeFile(script, JSON.stringify({ turns }));
  return script;
}

const traced = () => ({ ...homeEnv(home), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });

/** The remote side's main agent span hangs under the caller's span of the child. */
async function expectOneTrace(childType: string, remoteAgentType: string): Promise<void> {
  const local = await spanWhere(
    (span) => span.name === `invoke_agent ${childType}` && span.parentSpanId !== '',
  );
  const remote = await spanWhere(
    (span) => span.name === `invoke_agent ${remoteAgentType}` && span.parentSpanId === local.spanId,
  );
  expect(remote.traceId).toBe(local.traceId);
  const root = await spanWhere(
    (span) => span.name === 'invoke_agent main' && span.parentSpanId === '',
  );
  expect(local.traceId).toBe(root.traceId);
}

describe('trace context sent to children in other processes', () => {
  it('continues the trace in a kind: acp child through _meta.traceparent', async () => {
    const inner = join(home, 'inner.json');
    await writeFile(inner, JSON.stringify({ turns: [{ text: 'inner done' }] }));
    const agents = join(home, 'agents');
    await mkdir(agents, { recursive: true });
    const args = [WARREN_BIN, 'acp', '--model', `scripted:${inner}`];
    await writeFile(
      join(agents, 'inner.md'),
      [
        '---',
        'name: inner',
        'description: an external ACP agent',
        'kind: acp',
        `command: ${JSON.stringify(process.execPath)}`,
        `args: ${JSON.stringify([...args, '--session-dir', join(home, 'inner-sessions')])}`,
        'env:',
        `  HOME: ${JSON.stringify(home)}`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the definition's own syntax
        '  OTEL_EXPORTER_OTLP_ENDPOINT: ${OTEL_EXPORTER_OTLP_ENDPOINT}',
        '---',
        '',
      ].join('\n'),
    );
    const script = await callerScript('inner', 'say hi');
    const run = await runWarren(
      ['-p', 'go', '--model', `scripted:${script}`, '--agents-dir', agents],
      { env: traced(), cwd: caller },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    await expectOneTrace('inner', 'main');
  });

  it('continues the trace in a kind: remote child through the traceparent header', async () => {
    const served = await servedProject();
    await writeFile(join(served.home, 'token'), 'trace-token\n');
    const server = await serveWarren(
      served,
      [
        'a2a',
        'serve',
        '--port',
        '0',
        '--agent',
        'helper',
        '--token-file',
        join(served.home, 'token'),
      ],
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    );
    try {
      await writeRemoteDefinition(caller, '.warren/agents', server.url, 'trace-token');
      const script = await callerScript('far', 'FG part');
      const run = await runWarren(
        ['-p', 'go', '--model', `scripted:${script}`, '--trust-project'],
        { env: traced(), cwd: caller },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    } finally {
      // The server flushes its spans as it stops.
      await server.stop();
    }
    await expectOneTrace('far', 'helper');
  });
});
