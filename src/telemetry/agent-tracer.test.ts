// Spans from the event stream: names, GenAI attributes and the parent chain of a real scripted
// tree (two parallel children, one with a child of its own), and of a background child whose
// events arrive after its Agent call returned.
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRef } from '../core/events.js';
import { resolveModel } from '../model/resolve-model.js';
import { scriptedModel } from '../model/scripted-model.js';
import { query } from '../query.js';
import { startMockLlmServer } from '../testing/mock-llm/server.js';
import { resultEvent, runStartEvent } from '../testing/run-results.js';
import { echoTool } from '../testing/stub-tools.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { AgentTracer } from './agent-tracer.js';

function tracing() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  return { exporter, tracerProvider };
}

const agentCall = (description: string) => ({
  name: 'Agent',
  input: { description, prompt: `${description} SECRET-PROMPT` },
});

async function runTracedTree(traceContent = false) {
  const { exporter, tracerProvider } = tracing();
  const model = scriptedModel([
    { match: { agent: '/^main$/' }, toolCalls: [agentCall('left'), agentCall('right')] },
    { match: { agent: '/^main/Agent#1/[^/]+$/' }, delayMs: 5, toolCalls: [agentCall('deeper')] },
    {
      match: { agent: '/^main/Agent#1/.+/Agent#1/' },
      toolCalls: [{ name: 'Echo', input: { text: 'hi' } }],
    },
    { match: { agent: '/^main/Agent#1/.+/Agent#1/' }, text: 'grandchild done' },
    { match: { agent: '/^main/Agent#1/[^/]+$/' }, text: 'left done' },
    { match: { agent: '/^main/Agent#2/' }, text: 'right done', usage: { input: 7, cacheRead: 3 } },
    { match: { agent: '/^main$/' }, text: 'all done' },
  ]);
  for await (const _ of query({
    prompt: 'fan out',
    options: { model, tools: [echoTool], cwd: await makeTempDir(), tracerProvider, traceContent },
  })) {
    // The tracer reads the stream as it passes.
  }
  model.assertComplete();
  return exporter.getFinishedSpans();
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);

describe('AgentTracer', () => {
  it('makes an invoke_agent, chat and execute_tool span per agent, model call and tool call', async () => {
    const spans = await runTracedTree();
    expect(byName(spans, 'invoke_agent main')).toHaveLength(1);
    expect(byName(spans, 'invoke_agent general-purpose')).toHaveLength(3);
    expect(byName(spans, 'chat script')).toHaveLength(7);
    expect(byName(spans, 'execute_tool Agent')).toHaveLength(3);
    expect(byName(spans, 'execute_tool Echo')).toHaveLength(1);
    // One trace for the whole tree.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    const [main] = byName(spans, 'invoke_agent main');
    expect(main?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'main',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'script',
      'warren.agent.path': 'main',
      'warren.agent.status': 'completed',
    });
    expect(parentOf(main!)).toBeUndefined();
    const right = spans.find(
      (span) => span.attributes['warren.agent.path'] === 'main/Agent#2/general-purpose',
    )!;
    expect(right.attributes).toMatchObject({
      'gen_ai.agent.description': 'right',
      'gen_ai.agent.id': expect.stringMatching(/^agent_/),
      'warren.agent.depth': 1,
    });
    const rightChat = spans.find(
      (span) => span.name === 'chat script' && parentOf(span) === right.spanContext().spanId,
    );
    expect(rightChat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.cache_read.input_tokens': 3,
      'gen_ai.usage.output_tokens': expect.any(Number),
      'gen_ai.response.finish_reasons': ['stop'],
    });
    const [echo] = byName(spans, 'execute_tool Echo');
    expect(echo?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Echo',
      'gen_ai.tool.call.id': expect.any(String),
    });
  });

  it("hangs each child's agent span under its parent's Agent tool span, down to depth 2", async () => {
    const spans = await runTracedTree();
    const spanOfPath = (path: string) =>
      spans.find((span) => span.attributes['warren.agent.path'] === path)!;
    const toolSpanOf = (agent: ReadableSpan) =>
      spans.find((span) => span.spanContext().spanId === parentOf(agent))!;
    const main = spanOfPath('main');
    for (const path of ['main/Agent#1/general-purpose', 'main/Agent#2/general-purpose']) {
      const tool = toolSpanOf(spanOfPath(path));
      expect(tool.name).toBe('execute_tool Agent');
      expect(parentOf(tool)).toBe(main.spanContext().spanId);
    }
    const left = spanOfPath('main/Agent#1/general-purpose');
    const grandchild = spanOfPath('main/Agent#1/general-purpose/Agent#1/general-purpose');
    const grandchildTool = toolSpanOf(grandchild);
    expect(grandchildTool.name).toBe('execute_tool Agent');
    expect(parentOf(grandchildTool)).toBe(left.spanContext().spanId);
    // The Agent tool span lasts as long as the child it waited for (each span anchors its own
    // clock to the wall clock at its start, so two spans may disagree by a millisecond or two).
    expect(hrToMs(grandchildTool.endTime)).toBeGreaterThanOrEqual(hrToMs(grandchild.endTime) - 3);
  });

  it('records no message contents unless asked to', async () => {
    const quiet = JSON.stringify((await runTracedTree()).map((span) => span.attributes));
    expect(quiet).not.toContain('SECRET-PROMPT');
    expect(quiet).not.toContain('gen_ai.input.messages');
    const loud = await runTracedTree(true);
    const chat = loud.find((span) => span.name === 'chat script')!;
    expect(String(chat.attributes['gen_ai.input.messages'])).toContain('fan out');
    expect(String(chat.attributes['gen_ai.output.messages'])).toContain('"tool-call"');
    const echo = byName(loud, 'execute_tool Echo')[0]!;
    expect(echo.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"hi"}');
    expect(echo.attributes['gen_ai.tool.call.result']).toBe('echo: hi');
  });

  it('puts a background child, whose events come after its Agent call returned, under that call', () => {
    const { exporter, tracerProvider } = tracing();
    const tracer = new AgentTracer(tracerProvider.getTracer('test'));
    const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };
    const child: AgentRef = { agentId: 'bg', parentId: 'main', depth: 1 };
    const model = 'anthropic:claude-sonnet-4-5';
    const result = (ref: AgentRef): AgentEvent => resultEvent(ref, { agentType: 'x', costUsd: 0 });
    const events: AgentEvent[] = [
      runStartEvent(main, 'main', { model }),
      { ...main, type: 'tool_start', toolCallId: 'bg-call', toolName: 'Agent', input: {} },
      {
        ...main,
        type: 'tool_end',
        toolCallId: 'bg-call',
        toolName: 'Agent',
        output: '{"task_id":"t1","status":"running"}',
        isError: false,
        durationMs: 1,
      },
      runStartEvent(child, 'main/Agent#1/explore', { model, parentToolCallId: 'bg-call' }),
      { ...child, type: 'turn_start', turn: 1 },
      result(child),
      result(main),
    ];
    for (const event of events) tracer.observe(event);
    const spans = exporter.getFinishedSpans();
    const tool = spans.find((span) => span.name === 'execute_tool Agent')!;
    const background = spans.find((span) => span.name === 'invoke_agent explore')!;
    expect(parentOf(background)).toBe(tool.spanContext().spanId);
    // The model call the run never answered ends with the agent, as an error.
    const chat = spans.find((span) => span.name === 'chat claude-sonnet-4-5')!;
    expect(chat.status.code).toBe(2);
    expect(parentOf(chat)).toBe(background.spanContext().spanId);
  });
});

describe('a chat span of a real provider', () => {
  it('names the model that answered, the response id and the server it went to', async () => {
    const server = await startMockLlmServer({ replies: [{ text: 'hello' }] });
    const { exporter, tracerProvider } = tracing();
    try {
      const model = await resolveModel('anthropic:claude-sonnet-4-5', {
        env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url },
      });
      const previous = process.env.ANTHROPIC_BASE_URL;
      process.env.ANTHROPIC_BASE_URL = server.url;
      try {
        for await (const _ of query({
          prompt: 'hi',
          options: { model, cwd: await makeTempDir(), tracerProvider },
        })) {
          // drained: the spans are what this test reads
        }
      } finally {
        if (previous === undefined) delete process.env.ANTHROPIC_BASE_URL;
        else process.env.ANTHROPIC_BASE_URL = previous;
      }
    } finally {
      await server.close();
    }
    const chat = exporter.getFinishedSpans().find((span) => span.name.startsWith('chat '))!;
    const { port } = new URL(server.url);
    expect(chat.attributes).toMatchObject({
      'gen_ai.response.model': 'claude-sonnet-4-5',
      'gen_ai.response.id': expect.stringMatching(/^msg_/),
      'server.address': '127.0.0.1',
      'server.port': Number(port),
    });
  });
});

function hrToMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
