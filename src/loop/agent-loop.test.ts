import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunResult } from '../core/events.js';
import type { Inbox, InboxDelivery, InboxState } from '../core/inbox.js';
import type { PermissionPolicy } from '../core/permission-policy.js';
import { defineTool, FatalToolError, type Tool } from '../core/tool.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { echoTool, readOnlyTool, throwingTool } from '../testing/stub-tools.js';
import { type AgentLoopOptions, agentLoop } from './agent-loop.js';
import { Interrupter } from './stop-signals.js';

async function run(
  turns: ScriptTurn[],
  options: Partial<AgentLoopOptions> = {},
  prompt = 'do the task',
) {
  const model = scriptedModel(turns);
  const { events, result } = await runToEnd(
    agentLoop({ prompt, options: { model, retry: FAST_RETRY, ...options } }),
  );
  return { result, events, model };
}

const FAST_RETRY = { initialDelayMs: 1, maxDelayMs: 5 };

function toolResults(result: RunResult) {
  return result.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
}

/** A tool that records when each call starts and ends, to see overlap. */
function timedTool(name: string, log: string[], options: { safe: boolean; ms: number }): Tool {
  return defineTool({
    name,
    description: 'waits a little',
    inputSchema: z.object({ id: z.string() }),
    isReadOnly: true,
    isConcurrencySafe: options.safe,
    async call({ id }) {
      log.push(`start ${id}`);
      await new Promise((resolve) => setTimeout(resolve, options.ms));
      log.push(`end ${id}`);
      return `done ${id}`;
    },
  });
}

/** A tool that runs until its signal aborts; `aborted()` says whether it saw the abort. */
function toolWaitingForAbort(onStart: () => void = () => {}) {
  let aborted = false;
  const tool = readOnlyTool({
    name: 'Waits',
    description: 'waits for its signal',
    call: (_, ctx) =>
      new Promise<string>((_, reject) => {
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('aborted'));
        });
        onStart();
      }),
  });
  return { tool, aborted: () => aborted };
}

describe('agentLoop()', () => {
  it('runs a multi-turn conversation with tools and reports its events in order', async () => {
    const { result, events } = await run(
      [
        { text: 'Let me echo.', toolCalls: [{ name: 'Echo', input: { text: 'hi' } }] },
        { text: 'The tool said echo: hi.' },
      ],
      { tools: [echoTool], systemPrompt: 'You are a test.' },
    );
    expect(result).toMatchObject({
      subtype: 'success',
      status: 'completed',
      isError: false,
      result: 'The tool said echo: hi.',
      numTurns: 2,
      toolCalls: 1,
    });
    expect(toolResults(result)).toEqual([
      expect.objectContaining({ toolName: 'Echo', output: 'echo: hi', isError: false }),
    ]);
    const kinds = events.map((event) => event.type).filter((type) => type !== 'message_delta');
    expect(kinds).toEqual([
      'run_start',
      'message_end', // system
      'message_end', // user
      'turn_start',
      'message_start',
      'usage',
      'message_end', // assistant
      'tool_start',
      'tool_end',
      'message_end', // tool results
      'turn_end',
      'turn_start',
      'message_start',
      'usage',
      'message_end',
      'turn_end',
      'result',
    ]);
    expect(ofType(events, 'message_delta').length).toBeGreaterThan(2);
    expect(result.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('sums usage per turn and per run, and reports no cost for a model without a price', async () => {
    const { result, events } = await run(
      [
        { toolCalls: [{ name: 'Echo', input: { text: 'a' } }], usage: { input: 100, output: 10 } },
        { text: 'ok', usage: { input: 150, output: 5, cacheRead: 40, cacheWrite: 7 } },
      ],
      { tools: [echoTool] },
    );
    expect(ofType(events, 'usage').map((event) => event.usage.inputTokens)).toEqual([100, 150]);
    expect(result.usage).toEqual({
      inputTokens: 250,
      outputTokens: 15,
      cacheReadInputTokens: 40,
      cacheCreationInputTokens: 7,
    });
    expect(result.costUsd).toBeNull();
  });

  it('runs concurrency-safe calls of one message at the same time, results in call order', async () => {
    const log: string[] = [];
    const slow = timedTool('Slow', log, { safe: true, ms: 40 });
    const { result } = await run(
      [
        {
          toolCalls: [
            { name: 'Slow', input: { id: 'a' } },
            { name: 'Slow', input: { id: 'b' } },
            { name: 'Slow', input: { id: 'c' } },
          ],
        },
        { text: 'done' },
      ],
      { tools: [slow] },
    );
    expect(log.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
    expect(toolResults(result).map((part) => part.output)).toEqual(['done a', 'done b', 'done c']);
  });

  it('runs calls one by one when any tool of the message is not concurrency-safe', async () => {
    const log: string[] = [];
    const tools = [
      timedTool('Safe', log, { safe: true, ms: 10 }),
      timedTool('Unsafe', log, { safe: false, ms: 10 }),
    ];
    await run(
      [
        {
          toolCalls: [
            { name: 'Safe', input: { id: '1' } },
            { name: 'Unsafe', input: { id: '2' } },
            { name: 'Safe', input: { id: '3' } },
          ],
        },
        { text: 'done' },
      ],
      { tools },
    );
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  describe('turns the failures a model can fix into error results and carries on', () => {
    const throwing = throwingTool('Throws', new Error('disk on fire'));
    const hanging = readOnlyTool({
      name: 'Hangs',
      description: 'never returns, ignores its signal',
      timeoutMs: 50,
      call: () => new Promise<string>(() => {}),
    });

    it.each([
      [
        'an unknown tool',
        { name: 'Nope', input: {} },
        /Unknown tool "Nope". Available tools: Echo/,
      ],
      [
        'arguments failing the schema',
        { name: 'Echo', input: { text: 42 } },
        /Invalid arguments for Echo: text: .*expected string.*Fix them/,
      ],
      ['a tool that throws', { name: 'Throws', input: {} }, /Throws failed: disk on fire/],
      [
        'a tool that runs past its timeout',
        { name: 'Hangs', input: {} },
        /Hangs timed out after 50 ms/,
      ],
    ])('%s', async (_, call, message) => {
      const { result } = await run([{ toolCalls: [call] }, { text: 'recovered' }], {
        tools: [echoTool, throwing, hanging],
      });
      const [part] = toolResults(result);
      expect(part).toMatchObject({ isError: true });
      expect(part?.output).toMatch(message);
      expect(result).toMatchObject({ status: 'completed', result: 'recovered' });
    });

    it('a call the permission policy denies', async () => {
      const denyAll: PermissionPolicy = {
        decide: async () => ({ behavior: 'deny', message: 'Echo is not allowed here' }),
      };
      const { result } = await run(
        [{ toolCalls: [{ name: 'Echo', input: { text: 'x' } }] }, { text: 'fine' }],
        { tools: [echoTool], permissions: denyAll },
      );
      expect(toolResults(result)[0]).toMatchObject({
        isError: true,
        output: 'Echo is not allowed here',
      });
    });

    it('a denied call, whose tool_end carries the denial as people read it', async () => {
      const denyAll: PermissionPolicy = {
        decide: async () => ({
          behavior: 'deny',
          message: 'Do without Echo.',
          notice: 'Echo was denied; rerun with --allowed-tools Echo to allow it.',
        }),
      };
      const { events } = await run(
        [{ toolCalls: [{ name: 'Echo', input: { text: 'x' } }] }, { text: 'fine' }],
        { tools: [echoTool], permissions: denyAll },
      );
      expect(ofType(events, 'tool_end')).toEqual([
        expect.objectContaining({
          output: 'Do without Echo.',
          denial: 'Echo was denied; rerun with --allowed-tools Echo to allow it.',
        }),
      ]);
      const allowed = await run(
        [{ toolCalls: [{ name: 'Echo', input: { text: 'x' } }] }, { text: 'fine' }],
        { tools: [echoTool] },
      );
      expect(ofType(allowed.events, 'tool_end')[0]).not.toHaveProperty('denial');
    });
  });

  it('cuts a tool output too large for the conversation, with an error that says so', async () => {
    const flood = readOnlyTool({
      name: 'Flood',
      description: 'returns 5 MB',
      call: async () => 'x'.repeat(5_000_000),
    });
    const { result, events } = await run(
      [{ toolCalls: [{ name: 'Flood', input: {} }] }, { text: 'ok' }],
      {
        tools: [flood],
      },
    );
    const [part] = toolResults(result);
    expect(part?.isError).toBe(true);
    expect(part?.output.length).toBeLessThan(201_000);
    expect(part?.output).toMatch(
      /\[Error: the output of Flood was 5000000 characters, more than the 200000 a tool result may hold; .*Ask for less/,
    );
    expect(ofType(events, 'tool_end')[0]?.output).toBe(part?.output);
    expect(result.status).toBe('completed');
  });

  it('ends the agent with a failure when a tool throws FatalToolError', async () => {
    const guard = throwingTool('Guard', new FatalToolError('secret found in output'));
    const { result } = await run([{ toolCalls: [{ name: 'Guard', input: {} }] }, { text: 'x' }], {
      tools: [guard],
    });
    expect(result).toMatchObject({
      status: 'failed',
      subtype: 'error_during_execution',
      error: 'secret found in output',
    });
    expect(result.messages.at(-1)?.role).toBe('tool');
  });

  describe('limits', () => {
    const forever: ScriptTurn = { toolCalls: [{ name: 'Echo', input: { text: 'again' } }] };

    it('stops at max turns and gives the agent a grace turn without tools', async () => {
      const { result, model } = await run(
        [forever, forever, { text: 'I echoed twice; the task is not finished.' }],
        { tools: [echoTool], maxTurns: 2 },
      );
      expect(result).toMatchObject({
        subtype: 'error_max_turns',
        status: 'max_turns',
        isError: true,
        numTurns: 3,
        result: 'I echoed twice; the task is not finished.',
        error: 'Reached the maximum of 2 turns.',
      });
      const graceCall = model.calls.at(-1);
      expect(graceCall?.toolChoice).toEqual({ type: 'none' });
      const lastPrompt = graceCall?.prompt.at(-1);
      expect(JSON.stringify(lastPrompt)).toContain('You cannot call tools any more');
    });

    it('keeps only the text of a grace-turn reply and runs none of its tool calls', async () => {
      const { result, events } = await run(
        [
          forever,
          { text: 'Out of turns.', toolCalls: [{ name: 'Echo', input: { text: 'one more' } }] },
        ],
        { tools: [echoTool], maxTurns: 1 },
      );
      const textOnly = { role: 'assistant', content: [{ type: 'text', text: 'Out of turns.' }] };
      expect(result).toMatchObject({ status: 'max_turns', result: 'Out of turns.', toolCalls: 1 });
      expect(result.messages.at(-1)).toEqual(textOnly);
      expect(ofType(events, 'turn_end').at(-1)?.message).toEqual(textOnly);
      expect(ofType(events, 'tool_start').map((event) => event.input)).toEqual([{ text: 'again' }]);
    });

    it('leaves out the grace turn when asked to', async () => {
      const { result, model } = await run([forever, forever], {
        tools: [echoTool],
        maxTurns: 1,
        graceTurn: false,
      });
      expect(result.status).toBe('max_turns');
      expect(model.calls).toHaveLength(1);
    });

    it('stops when the token budget is spent', async () => {
      const big: ScriptTurn = { ...forever, usage: { input: 600, output: 100 } };
      const { result } = await run([big, big, { text: 'out of tokens' }], {
        tools: [echoTool],
        tokenBudget: 1000,
      });
      expect(result).toMatchObject({
        subtype: 'error_budget',
        status: 'budget',
        numTurns: 3,
        result: 'out of tokens',
        error: 'The token budget is used up.',
      });
    });

    it('stops a slow model call when the time budget runs out', async () => {
      const { result } = await run([{ text: 'too late', delayMs: 5_000 }, { text: 'summary' }], {
        timeBudgetMs: 50,
      });
      expect(result).toMatchObject({
        status: 'budget',
        error: 'The time budget is used up.',
        result: 'summary',
      });
    });
  });

  describe('cancellation', () => {
    it('aborts an in-flight model call and ends the run as cancelled, without a grace turn', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const { result, model } = await run([{ text: 'never', delayMs: 5_000 }, { text: 'x' }], {
        signal: controller.signal,
      });
      expect(result).toMatchObject({
        status: 'cancelled',
        subtype: 'error_during_execution',
        error: 'The run was cancelled.',
      });
      expect(model.calls).toHaveLength(1);
    });

    it('aborts running tools through their signal', async () => {
      const controller = new AbortController();
      const waits = toolWaitingForAbort(() => setTimeout(() => controller.abort(), 20));
      const { result } = await run([{ toolCalls: [{ name: 'Waits', input: {} }] }, { text: 'x' }], {
        tools: [waits.tool],
        signal: controller.signal,
      });
      expect(waits.aborted()).toBe(true);
      expect(result.status).toBe('cancelled');
      expect(toolResults(result)[0]?.output).toMatch(/Cancelled/);
    });
  });

  it('stops what it started when the consumer stops reading early', async () => {
    const waits = toolWaitingForAbort();
    const model = scriptedModel([{ toolCalls: [{ name: 'Waits', input: {} }] }, { text: 'x' }]);
    const run = agentLoop({
      prompt: 'go',
      options: { model, tools: [waits.tool], timeBudgetMs: 60_000, retry: FAST_RETRY },
    });
    for await (const event of run) {
      if (event.type === 'tool_start') break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(waits.aborted()).toBe(true);
  });

  describe('model failures', () => {
    it('retries a 429, waiting as long as retry-after says', async () => {
      const { result, events } = await run([
        { error: { status: 429, retryAfter: 0.02 } },
        { text: 'made it' },
      ]);
      expect(result).toMatchObject({ status: 'completed', result: 'made it' });
      expect(ofType(events, 'retry')).toEqual([
        expect.objectContaining({ attempt: 1, delayMs: 20 }),
      ]);
    });

    it('retries a stream cut in the middle of the reply', async () => {
      const { result, events } = await run([
        { text: 'one two three four five', error: { cutAfterDeltas: 2 } },
        { text: 'whole reply' },
      ]);
      expect(result.result).toBe('whole reply');
      expect(ofType(events, 'retry')).toHaveLength(1);
    });

    it.each([[500], [503], [529], [408], [409]])('retries status %i', async (status) => {
      const { result } = await run([{ error: { status } }, { text: 'ok' }]);
      expect(result.result).toBe('ok');
    });

    it('ends the run with error_during_execution on an error that is not worth retrying', async () => {
      const { result, events } = await run([
        { error: { status: 400, message: 'messages: field required' } },
        { text: 'never' },
      ]);
      expect(result).toMatchObject({
        subtype: 'error_during_execution',
        status: 'failed',
        isError: true,
      });
      expect(result.error).toContain('messages: field required');
      expect(ofType(events, 'retry')).toHaveLength(0);
    });

    it('gives up after the configured number of retries', async () => {
      const { result, events } = await run(
        [{ error: { status: 503 } }, { error: { status: 503 } }, { error: { status: 503 } }],
        { retry: { ...FAST_RETRY, maxRetries: 2 } },
      );
      expect(result.status).toBe('failed');
      expect(ofType(events, 'retry')).toHaveLength(2);
    });
  });

  it('never reports an earlier reply of a resumed conversation as its result', async () => {
    const first = await run([{ text: 'OLD ANSWER' }], {}, 'one');
    const { result } = await run([{ error: { status: 400 } }], { messages: first.result.messages });
    expect(result).toMatchObject({ status: 'failed', result: '' });
  });

  it('continues an earlier conversation given as messages', async () => {
    const first = await run([{ text: 'The secret is 7.' }], { systemPrompt: 'sys' }, 'remember');
    const { result, model } = await run(
      [{ text: 'It was 7.' }],
      { messages: first.result.messages },
      'what was it?',
    );
    expect(result.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain('The secret is 7.');
  });
});

/** An inbox the test fills: `send` adds a message, `finish` says nothing more will come. */
class TestInbox implements Inbox {
  readonly delivered: string[] = [];
  closed = false;
  #queue: string[] = [];
  #running: boolean;
  #wake: (() => void) | undefined;

  constructor(running: boolean) {
    this.#running = running;
  }

  send(text: string): void {
    this.#queue.push(text);
    this.#wake?.();
  }

  finish(): void {
    this.#running = false;
    this.#wake?.();
  }

  take(): InboxDelivery | undefined {
    if (this.#queue.length === 0) return undefined;
    const content = this.#queue.splice(0).join('\n');
    return { message: { role: 'user', content }, delivered: () => this.delivered.push(content) };
  }

  async wait(signal: AbortSignal): Promise<InboxState> {
    for (;;) {
      if (this.#queue.length > 0) return 'ready';
      if (!this.#running) return 'idle';
      if (signal.aborted) return 'aborted';
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  passTo(): void {}

  close(): void {
    this.closed = true;
  }
}

describe('agentLoop() and its inbox', () => {
  it('takes what arrived before every model call, and records that it has it', async () => {
    const inbox = new TestInbox(false);
    inbox.send('NEWS from a task');
    const { result, model } = await run([{ text: 'read the news' }], { inbox });
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain('NEWS from a task');
    expect(inbox.delivered).toEqual(['NEWS from a task']);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'user', 'assistant']);
    expect(inbox.closed).toBe(true);
  });

  it('when the model ends its turn, waits for what its background work sends and goes on', async () => {
    const inbox = new TestInbox(true);
    setTimeout(() => inbox.send('LATE NEWS'), 20);
    setTimeout(() => inbox.finish(), 40);
    const { result } = await run(
      [
        { match: { prompt: 'do the task' }, text: 'waiting' },
        { match: { prompt: 'LATE NEWS' }, text: 'used the news' },
      ],
      { inbox },
    );
    expect(result).toMatchObject({ status: 'completed', result: 'used the news', numTurns: 2 });
  });

  it('with waitForBackground: false ends when the model ends its turn', async () => {
    const inbox = new TestInbox(true);
    const { result } = await run([{ text: 'not waiting' }], { inbox, waitForBackground: false });
    expect(result).toMatchObject({ status: 'completed', numTurns: 1 });
    expect(inbox.closed).toBe(true);
  });

  it('an interrupt ends the turn, not the agent: it goes on with what arrives', async () => {
    const inbox = new TestInbox(true);
    const interrupter = new Interrupter();
    const { tool, aborted } = toolWaitingForAbort(() => {
      setTimeout(() => interrupter.interrupt(), 10);
      setTimeout(() => inbox.send('NEWS after the interrupt'), 30);
      setTimeout(() => inbox.finish(), 40);
    });
    const { result } = await run(
      [
        { match: { prompt: 'do the task' }, toolCalls: [{ name: 'Waits', input: {} }] },
        { match: { prompt: 'NEWS after' }, text: 'carried on' },
      ],
      { inbox, interrupt: interrupter, tools: [tool] },
    );
    expect(aborted()).toBe(true);
    expect(result).toMatchObject({ status: 'completed', result: 'carried on' });
    expect(toolResults(result)[0]).toMatchObject({ isError: true });
    expect(
      result.messages.some((m) => m.role === 'user' && m.content.includes('interrupted')),
    ).toBe(true);
  });
});
