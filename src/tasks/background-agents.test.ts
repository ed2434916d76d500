// Background sub-agents through query(), with the scripted model: a child started without
// waiting, its notification before the parent's next model call, lifetimes that follow the run,
// the `max-parallel` cap, permissions, and a host that manages the tasks itself.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf, RunResult } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { shownTaskStatus } from '../core/tasks.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import type { PermissionPrompt } from '../permissions/create-permission-policy.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import type { PermissionAnswer } from '../permissions/permission-prompt.js';
import { type Query, type QueryOptions, query } from '../query.js';
import { echoRunOptions } from '../testing/echo-run-options.js';
import { ReactiveModel, type ReactiveRequest } from '../testing/reactive-model.js';
import { runToEnd } from '../testing/run-events.js';
import { pokeTool, readOnlyTool } from '../testing/stub-tools.js';

const background = (prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 20), prompt, run_in_background: true, ...extra },
});

interface Run {
  result: RunResult;
  events: AgentEvent[];
  run: Query;
}

async function runQuery(
  model: QueryOptions['model'],
  options: Partial<QueryOptions> = {},
  prompt = 'MAIN task',
  onEvent?: (event: AgentEvent, run: Query) => void,
): Promise<Run> {
  const run = query({ prompt, options: { ...(await echoRunOptions(model)), ...options } });
  const { events, result } = await runToEnd(run, (event) => onEvent?.(event, run));
  return { result, events, run };
}

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is AgentEventOf<T> => event.type === type);

/** The user messages of a conversation that carry task notifications. */
const notifications = (messages: readonly Message[]) =>
  messages.filter(
    (message) => message.role === 'user' && message.content.includes('<task-notification>'),
  );

const taskIdsIn = (text: string) =>
  [...text.matchAll(/<task-id>(task_\w+)<\/task-id>/g)].map((m) => m[1]);

const toolOutputs = (result: RunResult) =>
  result.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));

describe('a background sub-agent', () => {
  it("passes its events into the run's stream as it makes them, while the main agent is busy", async () => {
    // The main agent's tool waits until the reader has seen the child's result: events that
    // waited for the main agent's own next event would never come.
    let sawChildEnd = () => {};
    const childEnded = new Promise<string>((resolve) => {
      sawChildEnd = () => resolve('saw the child end');
    });
    const waitTool = readOnlyTool({
      name: 'WaitForChild',
      description: 'waits until the reader saw the background child end',
      call: () =>
        Promise.race([
          childEnded,
          new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), 5000)),
        ]),
    });
    const model = scriptedModel([
      { toolCalls: [background('BG-TASK find the notes')] },
      { match: { prompt: 'BG-TASK' }, delayMs: 40, text: 'The notes are in notes.txt.' },
      { toolCalls: [{ name: 'WaitForChild', input: {} }] },
      { text: 'done' },
    ]);
    const { result } = await runQuery(model, { tools: [waitTool] }, 'MAIN task', (event) => {
      if (event.type === 'result' && event.depth === 1) sawChildEnd();
    });
    const waited = toolOutputs(result).find((part) => part.toolName === 'WaitForChild');
    expect(waited?.output).toBe('saw the child end');
  });

  it('returns its task at once; the parent waits and goes on with the notification', async () => {
    const model = scriptedModel([
      { toolCalls: [background('BG-TASK find the notes')] },
      { match: { prompt: 'BG-TASK' }, delayMs: 40, text: 'The notes are in notes.txt.' },
      { match: { lastToolResult: '"status":"running"' }, text: 'Started it; waiting.' },
      { match: { prompt: '<task-notification>' }, text: 'FINAL: notes.txt' },
    ]);
    const { result, events, run } = await runQuery(model);
    expect(result).toMatchObject({ status: 'completed', result: 'FINAL: notes.txt' });
    const [launch] = toolOutputs(result);
    const launched = JSON.parse(launch!.output.split('\n')[0]!);
    expect(launched).toMatchObject({ task_id: expect.stringMatching(/^task_/), status: 'running' });
    expect(launch!.output).toMatch(/You will be notified with its result when it finishes/);
    // The parent's next turn came before the child was done.
    const childEnd = events.findIndex((e) => e.type === 'result' && e.depth === 1);
    const mainTurnTwo = events.findIndex(
      (e) => e.type === 'turn_start' && e.depth === 0 && e.turn === 2,
    );
    expect(mainTurnTwo).toBeLessThan(childEnd);
    const [notification] = notifications(result.messages);
    expect(notification?.content).toContain(`<task-id>${launched.task_id}</task-id>`);
    expect(notification?.content).toContain('<status>completed</status>');
    expect(notification?.content).toContain('The notes are in notes.txt.');
    expect(notification?.content).toMatch(/no user input has occurred/);
    const [record] = run.tasks.list();
    expect(record).toMatchObject({
      taskId: launched.task_id,
      kind: 'local_agent',
      agentId: launched.agent_id,
      status: 'completed',
      result: 'The notes are in notes.txt.',
    });
    expect(record?.notifiedAt).toBeTypeOf('number');
    expect(ofType(events, 'task_started')).toHaveLength(1);
    expect(ofType(events, 'task_notification')[0]).toMatchObject({
      taskId: launched.task_id,
      status: 'completed',
      agentId: result.agentId,
    });
    model.assertComplete();
  });

  it('runs in the background when its definition says so, even if not asked', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          {
            name: 'Agent',
            input: { description: 'watch', prompt: 'WATCH', subagent_type: 'watcher' },
          },
        ],
      },
      { match: { prompt: 'WATCH' }, text: 'all quiet' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { prompt: '<task-notification>' }, text: 'done' },
    ]);
    const { result } = await runQuery(model, {
      agents: { watcher: { description: 'watches', prompt: 'You watch.', background: true } },
    });
    expect(toolOutputs(result)[0]?.output).toMatch(/^\{"task_id":"task_/);
    expect(notifications(result.messages)).toHaveLength(1);
  });

  it('delivers 50 notifications of children ending together, each exactly once', async () => {
    const children = Array.from({ length: 50 }, (_, index) => background(`BURST-${index} go`));
    const model = scriptedModel([
      { toolCalls: children },
      ...children.map((_, index) => ({
        match: { prompt: `/^BURST-${index} go$/` },
        delayMs: 30,
        text: `child ${index} done`,
      })),
      { match: { lastToolResult: '"task_id"' }, text: 'waiting for all of them' },
      ...Array.from({ length: 50 }, () => ({
        match: { prompt: '<task-notification>' },
        text: 'noted',
      })),
    ]);
    const { result, run } = await runQuery(model, { maxParallel: 50 });
    const delivered = notifications(result.messages).flatMap((message) =>
      taskIdsIn(message.content as string),
    );
    expect(delivered).toHaveLength(50);
    expect(new Set(delivered).size).toBe(50);
    expect(run.tasks.list().every((task) => task.status === 'completed' && task.notifiedAt)).toBe(
      true,
    );
  });
});

describe('lifetimes', () => {
  it('interrupting the main turn ends that turn but leaves background children running', async () => {
    let interrupted = false;
    const model = new ReactiveModel((request: ReactiveRequest): ScriptTurn => {
      if (request.lastUser.startsWith('SLOW-CHILD'))
        return { delayMs: 150, text: 'child finished' };
      if (request.lastUser.includes('<task-notification>'))
        return { text: 'FINAL after interrupt' };
      if (request.lastToolResult?.includes('"task_id"')) return { delayMs: 10_000, text: 'never' };
      return { toolCalls: [background('SLOW-CHILD work')] };
    });
    const { result, events } = await runQuery(model, {}, 'MAIN', (event, run) => {
      // The main agent's second model call has started: interrupt it.
      if (!interrupted && event.type === 'turn_start' && event.depth === 0 && event.turn === 2) {
        interrupted = true;
        setTimeout(() => run.interrupt(), 20);
      }
    });
    expect(interrupted).toBe(true);
    const child = ofType(events, 'result').find((event) => event.depth === 1);
    expect(child).toMatchObject({ status: 'completed', result: 'child finished' });
    expect(result).toMatchObject({ status: 'completed', result: 'FINAL after interrupt' });
    expect(
      result.messages.some(
        (m) => m.role === 'user' && m.content === 'The user interrupted your turn here.',
      ),
    ).toBe(true);
  });

  it('an interrupt with nothing running ends the run as cancelled', async () => {
    const model = scriptedModel([{ delayMs: 10_000, text: 'never' }]);
    const { result } = await runQuery(model, {}, 'MAIN', (event, run) => {
      if (event.type === 'turn_start') setTimeout(() => run.interrupt(), 10);
    });
    expect(result).toMatchObject({ status: 'cancelled', error: 'The turn was interrupted.' });
  });

  it('cancelling the run stops background children', async () => {
    const controller = new AbortController();
    const model = scriptedModel([
      { toolCalls: [background('FOREVER')] },
      { match: { prompt: 'FOREVER' }, delayMs: 60_000, text: 'never' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
    ]);
    // The child ends after the main agent's stream has: its events reach onEvent.
    const recorded: AgentEvent[] = [];
    const { result, run } = await runQuery(
      model,
      { signal: controller.signal, onEvent: (event) => recorded.push(event) },
      'MAIN',
      (event) => {
        if (event.type === 'turn_end' && event.depth === 0 && event.turn === 2) {
          setTimeout(() => controller.abort(), 10);
        }
      },
    );
    expect(result.status).toBe('cancelled');
    await run.tasks.waitAll();
    expect(run.tasks.list()[0]).toMatchObject({ status: 'cancelled', agentStatus: 'cancelled' });
    expect(ofType(recorded, 'result').find((e) => e.depth === 1)?.status).toBe('cancelled');
  });

  it('with waitForBackground: false the run ends at once and the host waits for the tasks', async () => {
    const model = scriptedModel([
      { toolCalls: [background('LATER')] },
      { match: { prompt: 'LATER' }, delayMs: 50, text: 'later result' },
      { match: { lastToolResult: '"task_id"' }, text: 'not waiting' },
    ]);
    const { result, run } = await runQuery(model, { waitForBackground: false });
    expect(result.result).toBe('not waiting');
    expect(run.tasks.list()[0]?.status).toBe('running');
    const [task] = await run.tasks.waitAll();
    expect(task).toMatchObject({ status: 'completed', result: 'later result', notifiedAt: null });
  });

  it("is bounded by the tree's time budget: it reports in a grace turn, then its parent does", async () => {
    const model = scriptedModel([
      { match: { prompt: 'MAIN' }, toolCalls: [background('LONG job')] },
      { match: { prompt: 'LONG job' }, delayMs: 60_000, text: 'never' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { system: 'sub-agent', prompt: 'cannot call tools' }, text: 'CHILD-PARTIAL report' },
      { match: { prompt: 'cannot call tools' }, text: 'MAIN-PARTIAL with CHILD-PARTIAL' },
    ]);
    const { result, run } = await runQuery(model, { timeBudgetMs: 150 });
    expect(result).toMatchObject({ status: 'budget', result: 'MAIN-PARTIAL with CHILD-PARTIAL' });
    expect(run.tasks.list()[0]).toMatchObject({
      status: 'completed',
      agentStatus: 'budget',
      result: expect.stringMatching(
        /^CHILD-PARTIAL report\n\n\[Note: the general-purpose agent was stopped early/,
      ),
    });
    const [notification] = notifications(result.messages);
    expect(notification?.content).toContain('<agent-status>budget</agent-status>');
  });

  it('counts against --max-parallel: a child beyond the cap waits as pending', async () => {
    const model = scriptedModel([
      { toolCalls: [background('FIRST'), background('SECOND')] },
      { match: { prompt: 'FIRST' }, delayMs: 30, text: 'first' },
      { match: { prompt: 'SECOND' }, text: 'second' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { prompt: '<task-notification>' }, text: 'got one' },
      { match: { prompt: '<task-notification>' }, text: 'got both' },
    ]);
    const { result, events } = await runQuery(model, { maxParallel: 1 });
    const statuses = toolOutputs(result).map(
      (part) => JSON.parse(part.output.split('\n')[0]!).status,
    );
    expect(statuses).toEqual(['running', 'pending']);
    const progress = ofType(events, 'task_progress').find((event) => event.status === 'running');
    expect(progress).toBeDefined();
    const starts = ofType(events, 'run_start').filter((event) => event.depth === 1);
    const firstEnd = ofType(events, 'result').find((event) => event.depth === 1);
    expect(events.indexOf(starts[1]!)).toBeGreaterThan(events.indexOf(firstEnd!));
  });
});

describe('permissions of a background child', () => {
  it('reach the host callback with the asking agent id, type and background flag', async () => {
    const prompts: PermissionPrompt[] = [];
    const model = scriptedModel([
      { toolCalls: [background('WRITER write it')] },
      {
        match: { prompt: 'WRITER' },
        toolCalls: [{ name: 'Write', input: { file_path: 'x.txt', content: 'x' } }],
      },
      { match: { lastToolResult: 'Not now' }, text: 'could not write' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { prompt: '<task-notification>' }, text: 'done' },
    ]);
    const permissions = createPermissionPolicy({
      mode: 'default',
      canUseTool: async (prompt) => {
        prompts.push(prompt);
        return { behavior: 'deny', message: 'Not now' };
      },
    });
    const { events } = await runQuery(model, { permissions, tools: undefined });
    const child = ofType(events, 'run_start').find((event) => event.depth === 1)!;
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.agent).toMatchObject({
      agentId: child.agentId,
      agentType: 'general-purpose',
      background: true,
    });
  });

  it('without a host to ask, are denied at once with the rule to add', async () => {
    const model = scriptedModel([
      { toolCalls: [background('TOUCHER')] },
      {
        match: { prompt: 'TOUCHER' },
        toolCalls: [{ name: 'Bash', input: { command: 'touch made' } }],
      },
      { match: { lastToolResult: 'was not granted' }, text: 'denied' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { prompt: '<task-notification>' }, text: 'done' },
    ]);
    const { events } = await runQuery(model, { tools: undefined });
    const denied = ofType(events, 'tool_end').find((event) => event.depth === 1);
    expect(denied?.output).toMatch(/--allowed-tools "Bash\(touch made\)"/);
  });

  it('show as blocked while they wait on the answer: task, ListAgents, the stream', async () => {
    let asked!: () => void;
    const askedNow = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let answer!: (allowed: PermissionAnswer) => void;
    const permissions = createPermissionPolicy({
      mode: 'default',
      canUseTool: () => {
        asked();
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    const waitForAsk = readOnlyTool({
      name: 'WaitForAsk',
      description: 'waits until the child asks',
      call: async () => {
        await askedNow;
        return 'the child asked';
      },
    });
    const allow = readOnlyTool({
      name: 'Allow',
      description: 'answers the child',
      call: async () => {
        answer({ behavior: 'allow' });
        return 'allowed';
      },
    });
    const model = new ReactiveModel((request) => {
      if (request.firstUser.startsWith('POKER')) {
        return request.lastToolResult === undefined
          ? { toolCalls: [{ name: 'Poke', input: {} }] }
          : { text: `poked: ${request.lastToolResult}` };
      }
      const last = request.lastToolResult ?? '';
      if (request.lastUser.includes('<task-notification>')) return { text: 'done' };
      if (last.includes('"task_id"')) return { toolCalls: [{ name: 'WaitForAsk', input: {} }] };
      if (last === 'the child asked') return { toolCalls: [{ name: 'ListAgents', input: {} }] };
      if (last.includes('status=')) return { toolCalls: [{ name: 'Allow', input: {} }] };
      if (last === 'allowed') return { text: 'waiting' };
      return { toolCalls: [background('POKER poke it')] };
    });
    const { result, events, run } = await runQuery(model, {
      permissions,
      tools: [pokeTool, waitForAsk, allow],
    });
    const listed = toolOutputs(result).find((part) => part.toolName === 'ListAgents')!.output;
    expect(listed).toMatch(/status=blocked \(permission to use Poke\)/);
    const blockedOn = ofType(events, 'task_progress').map((event) => event.progress.blockedOn);
    expect(blockedOn).toContain('permission to use Poke');
    // Once answered it runs on, and ends as any task does.
    expect(blockedOn.at(-1) ?? null).toBeNull();
    const [task] = run.tasks.list();
    expect(task).toMatchObject({ status: 'completed', result: 'poked: poked' });
    expect(shownTaskStatus(task!)).toBe('completed');
    expect(result.result).toBe('done');
  });

  it('shows a parent whose turn is over as busy while an agent below it runs', async () => {
    let releaseHold!: () => void;
    const held = new Promise<void>((resolve) => {
      releaseHold = resolve;
    });
    let parentWaits!: () => void;
    const parentWaiting = new Promise<void>((resolve) => {
      parentWaits = resolve;
    });
    const tools = [
      readOnlyTool({ name: 'Hold', description: 'holds', call: () => held.then(() => 'held') }),
      readOnlyTool({
        name: 'WaitForParent',
        description: 'until the parent waits',
        call: () => parentWaiting.then(() => 'parent waits'),
      }),
      readOnlyTool({
        name: 'Release',
        description: 'lets the grandchild end',
        call: async () => {
          releaseHold();
          return 'released';
        },
      }),
    ];
    const model = new ReactiveModel((request) => {
      const last = request.lastToolResult ?? '';
      const notified = request.lastUser.includes('<task-notification>');
      if (request.firstUser.startsWith('GRANDCHILD')) {
        return last ? { text: 'grandchild done' } : { toolCalls: [{ name: 'Hold', input: {} }] };
      }
      if (request.firstUser.startsWith('PARENT')) {
        if (notified) return { text: 'parent done' };
        return last.includes('"task_id"')
          ? { text: 'waiting for it' }
          : { toolCalls: [background('GRANDCHILD hold on')] };
      }
      if (notified) return { text: 'done' };
      if (last.includes('"task_id"')) return { toolCalls: [{ name: 'WaitForParent', input: {} }] };
      if (last === 'parent waits') return { toolCalls: [{ name: 'ListAgents', input: {} }] };
      if (last.includes('status=')) return { toolCalls: [{ name: 'Release', input: {} }] };
      if (last === 'released') return { text: 'waiting' };
      return { toolCalls: [background('PARENT start one')] };
    });
    // Recorded as they happen (a background agent's stream reaches the run only between calls).
    const onEvent = (event: AgentEvent) => {
      // Its turn is over; it waits for the grandchild from the next tick on.
      if (event.type === 'turn_end' && event.depth === 1 && toolCallsIn(event) === 0) {
        setImmediate(parentWaits);
      }
    };
    const { result } = await runQuery(model, { tools, onEvent });
    const listed = toolOutputs(result).find((part) => part.toolName === 'ListAgents')!.output;
    const lines = listed.split('\n');
    expect(
      lines.find((line) => line.includes('type=general-purpose') && line.includes('PARENT')),
    ).toMatch(/status=busy \(1 agent below it running\)/);
    expect(lines.find((line) => line.includes('GRANDCHILD'))).toMatch(/status=running/);
    expect(result.result).toBe('done');
  });
});

const toolCallsIn = (event: AgentEventOf<'turn_end'>) =>
  event.message.content.filter((part) => part.type === 'tool-call').length;
