// The Workflow tool through query(): items are real background children of the main agent (the
// same loop, the task store), answered by a model that decides from each request.
import { readFileSync } from 'node:fs';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../core/events.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { parsePermissionRule } from '../permissions/permission-rule.js';
import { type QueryOptions, query } from '../query.js';
import { echoRunOptions } from '../testing/echo-run-options.js';
import { ReactiveModel, type ReactiveRequest } from '../testing/reactive-model.js';
import { runToEnd } from '../testing/run-events.js';
import { pokeTool, readOnlyTool } from '../testing/stub-tools.js';
import { parseCsv } from './bundled/csv-file.js';
import type { WorkflowEvent } from './workflow-events.js';

const SCRIPT = `export const meta = { name: 'shout', description: 'shouts each word' };
phase('words');
const words = await pipeline(args.words, (word) => agent('ITEM shout ' + word, { label: word }));
const count = await agent('ITEM count ' + words.length, { schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } });
log('counted', count.n);
export const result = { words, n: count.n };`;

/** Main: one Workflow call, then its output as the final text. Items: by their prompt. */
function answer(workflowInput: Record<string, unknown>) {
  return (request: ReactiveRequest): ScriptTurn => {
    const task = request.firstUser;
    if (task.startsWith('ITEM count')) {
      return request.lastToolResult === undefined
        ? { toolCalls: [{ name: 'StructuredOutput', input: { n: Number(task.split(' ')[2]) } }] }
        : { text: 'done' };
    }
    if (task.startsWith('ITEM shout poke')) {
      return request.lastToolResult === undefined
        ? { toolCalls: [{ name: 'Poke', input: {} }] }
        : { text: request.lastToolResult.toUpperCase() };
    }
    if (task.startsWith('ITEM shout loop'))
      return { toolCalls: [{ name: 'Echo', input: { text: 'round again' } }] };
    if (task.startsWith('ITEM shout fail'))
      return { error: { status: 401, message: 'invalid x-api-key' } };
    if (task.startsWith('ITEM shout'))
      return { text: task.slice('ITEM shout '.length).toUpperCase() };
    if (request.lastToolResult !== undefined)
      return { text: `WORKFLOW SAID ${request.lastToolResult}` };
    return { toolCalls: [{ name: 'Workflow', input: workflowInput }] };
  };
}

/** `prepare` gets the run's working directory before the run starts. */
async function runMain(
  workflowInput: Record<string, unknown>,
  prepare?: (cwd: string) => Promise<void>,
  extra: Partial<QueryOptions> = {},
) {
  const model = new ReactiveModel(answer(workflowInput));
  const events: WorkflowEvent[] = [];
  const base = await echoRunOptions(model);
  await prepare?.(base.cwd);
  const run = query({
    prompt: 'MAIN run the workflow',
    // The call waits for the run (as `warren workflow run` makes it): its answer is the summary.
    options: {
      ...base,
      ...extra,
      workflows: { onEvent: (event) => events.push(event), wait: true },
    },
  });
  const { result, events: stream } = await runToEnd(run);
  return { result, events, stream, model, tasks: run.tasks.list() };
}

/** Permissions that allow the csv workflow (it writes its results file). */
const allowCsv = () =>
  createPermissionPolicy({
    mode: 'default',
    allow: [parsePermissionRule('Workflow(csv)', 'test')],
  });

const toolOutput = (result: RunResult) =>
  result.messages.flatMap((message) => (message.role === 'tool' ? message.content : []))[0]!;

describe('the Workflow tool', () => {
  it('runs each item as a background child and answers with the run, its structured values and its result', async () => {
    const { result, events, tasks } = await runMain({
      script: SCRIPT,
      args: { words: ['a', 'b', 'c'] },
    });
    const output = JSON.parse(toolOutput(result).output);
    expect(output).toMatchObject({
      workflow_name: 'shout',
      status: 'completed',
      items: { total: 4, completed: 4, failed: 0, launched: 4 },
      result: { words: ['A', 'B', 'C'], n: 3 },
    });
    expect(tasks).toHaveLength(4);
    expect(tasks.every((task) => task.kind === 'local_agent' && task.status === 'completed')).toBe(
      true,
    );
    // The workflow read every ending itself: the main agent got no notification.
    expect(
      result.messages.some((m) => m.role === 'user' && m.content.includes('<task-notification>')),
    ).toBe(false);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'workflow_start',
        'workflow_phase',
        'workflow_item',
        'workflow_log',
        'workflow_end',
      ]),
    );
  });

  it("puts the run's workflow_* events in the library's event stream, as the caller's", async () => {
    const { result, events, stream } = await runMain({ script: SCRIPT, args: { words: ['a'] } });
    const inStream = stream.filter((event) => event.type.startsWith('workflow_'));
    expect(inStream.map((event) => event.type)).toEqual(events.map((event) => event.type));
    expect(inStream[0]).toMatchObject({
      type: 'workflow_start',
      name: 'shout',
      agentId: result.agentId,
      depth: 0,
    });
    const item = inStream.find(
      (event) => event.type === 'workflow_item' && event.status === 'completed',
    );
    expect(item).toMatchObject({ agentId: result.agentId, label: 'a' });
  });

  it('traces the workflow under its tool span, each item agent under its item', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    await runMain({ script: SCRIPT, args: { words: ['a', 'b'] } }, undefined, { tracerProvider });
    const spans = exporter.getFinishedSpans();
    const parentOf = (span: (typeof spans)[number]) =>
      spans.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);
    const tool = spans.find((span) => span.name === 'execute_tool Workflow')!;
    const run = spans.find((span) => span.name === 'workflow shout')!;
    expect(parentOf(run)).toBe(tool);
    const items = spans.filter((span) => span.name.startsWith('workflow_item'));
    expect(items.map((span) => span.name).sort()).toEqual([
      'workflow_item ITEM count 2',
      'workflow_item a',
      'workflow_item b',
    ]);
    expect(items.every((item) => parentOf(item) === run)).toBe(true);
    const agents = spans.filter((span) => span.name === 'invoke_agent general-purpose');
    expect(agents.map((agent) => parentOf(agent)?.name).sort()).toEqual(
      items.map((span) => span.name).sort(),
    );
  });

  it('pauses on an authentication error and says how to resume, never completed', async () => {
    const { result } = await runMain({ script: SCRIPT, args: { words: ['a', 'fail', 'c'] } });
    const output = JSON.parse(toolOutput(result).output);
    expect(output.status).toBe('paused');
    expect(output.reason).toMatch(/refused the credentials/);
    expect(output.resume).toMatch(/resumeFromRunId/);
  });

  it('ends a looping item as no_progress while its siblings complete', async () => {
    const { result, events, tasks } = await runMain({
      script: SCRIPT,
      args: { words: ['a', 'loop', 'c'] },
    });
    const output = JSON.parse(toolOutput(result).output);
    expect(output).toMatchObject({
      status: 'completed_with_errors',
      items: { total: 4, completed: 3, no_progress: 1 },
      failed_items: [{ label: 'loop', status: 'no_progress' }],
      result: { words: ['A', null, 'C'], n: 3 },
    });
    expect(output.failed_items[0].error).toMatch(/^No progress: the same tool calls \(Echo\)/);
    const looper = tasks.find((task) => task.description === 'loop')!;
    expect(looper).toMatchObject({ status: 'failed', agentStatus: 'no_progress' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'workflow_item', label: 'loop', status: 'no_progress' }),
    );
  });

  it("shows an item whose agent waits on a permission answer as blocked in the run's progress", async () => {
    let allow: ((allowed: { behavior: 'allow' }) => void) | undefined;
    const permissions = createPermissionPolicy({
      mode: 'default',
      canUseTool: () => new Promise((resolve) => (allow = resolve)),
    });
    const events: WorkflowEvent[] = [];
    const model = new ReactiveModel(answer({ script: SCRIPT, args: { words: ['a', 'poke'] } }));
    const base = await echoRunOptions(model);
    const run = query({
      prompt: 'MAIN run the workflow',
      options: {
        ...base,
        tools: [...base.tools, pokeTool],
        permissions,
        workflows: {
          wait: true,
          onEvent: (event) => {
            events.push(event);
            // The person answers once the progress says the item waits for them.
            if (event.type === 'workflow_item' && event.status === 'blocked')
              allow?.({ behavior: 'allow' });
          },
        },
      },
    });
    const { result } = await runToEnd(run);
    const poke = events.filter(
      (event): event is Extract<WorkflowEvent, { type: 'workflow_item' }> =>
        event.type === 'workflow_item' && event.label === 'poke',
    );
    expect(poke.map((event) => event.status)).toEqual([
      'running',
      'blocked',
      'running',
      'completed',
    ]);
    expect(poke[1]!.blockedOn).toBe('permission to use Poke');
    expect(JSON.parse(toolOutput(result).output)).toMatchObject({
      status: 'completed',
      result: { words: ['A', 'POKED'] },
    });
  });

  it("sends an item's effort with its agent's model requests, and only its own", async () => {
    const script = `export const meta = { name: 'effort', description: 'two efforts' };
export const result = await parallel(
  () => agent('ITEM shout hard', { effort: 'high' }),
  () => agent('ITEM shout plain'),
);`;
    const { result, model } = await runMain({ script });
    expect(JSON.parse(toolOutput(result).output)).toMatchObject({ result: ['HARD', 'PLAIN'] });
    const reasoningOf = (prompt: string) =>
      model.calls.find((call) => call.firstUser === prompt)?.options.reasoning;
    expect(reasoningOf('ITEM shout hard')).toBe('high');
    expect(reasoningOf('ITEM shout plain')).toBeUndefined();
  });

  it('names the saved workflows when asked for one that does not exist', async () => {
    const { result } = await runMain({ name: 'nope' });
    expect(toolOutput(result)).toMatchObject({ isError: true });
    expect(toolOutput(result).output).toMatch(/workflow "nope": not found .*csv/);
  });

  it('asks before the csv workflow writes its results file, like any write', async () => {
    const { result } = await runMain({
      name: 'csv',
      args: { csv_path: 'x.csv', instruction: 'x' },
    });
    expect(toolOutput(result)).toMatchObject({ isError: true });
    expect(toolOutput(result).output).toMatch(/Permission to use Workflow\(csv\)/);
  });

  it('runs the bundled csv workflow: one agent per row, {column} filled, results written to a CSV', async () => {
    let cwd = '';
    const { result } = await runMain(
      {
        name: 'csv',
        args: { csv_path: 'people.csv', instruction: 'ITEM shout {name}', id_column: 'id' },
      },
      async (dir) => {
        cwd = await realpath(dir);
        await writeFile(join(cwd, 'people.csv'), 'id,name\np1,ada\np2,"fail, bob"\np3,cy\n');
      },
      { permissions: allowCsv() },
    );
    const output = JSON.parse(toolOutput(result).output);
    expect(output).toMatchObject({
      workflow_name: 'csv',
      output_csv_path: join(cwd, 'people.results.csv'),
    });
    const written = parseCsv(readFileSync(join(cwd, 'people.results.csv'), 'utf8'));
    expect(written.header).toEqual([
      'id',
      'name',
      'item_id',
      'status',
      'result_json',
      'last_error',
    ]);
    expect(written.rows[0]).toEqual(['p1', 'ada', 'p1', 'completed', '"ADA"', '']);
    // The failing row paused the run (its provider refused the key); the row after it never ran.
    expect(written.rows[1]!.slice(0, 4)).toEqual(['p2', 'fail, bob', 'p2', 'paused']);
    expect(output.status).toBe('paused');
  });

  it('refuses a csv_path outside the allowed directories, even when the workflow is allowed', async () => {
    const { result } = await runMain(
      { name: 'csv', args: { csv_path: '/etc/passwd', instruction: 'x' } },
      undefined,
      { permissions: allowCsv() },
    );
    expect(toolOutput(result)).toMatchObject({ isError: true });
    expect(toolOutput(result).output).toMatch(/args\.csv_path: .*outside/);
  });

  it('reads a scriptPath inside the allowed directories, and names it in errors', async () => {
    const broken =
      "export const meta = { name: 'b', description: 'broken' };\nconst a = 1;\nthrow new Error('boom');";
    const { result } = await runMain({ scriptPath: 'flows/b.js' }, async (dir) => {
      await mkdir(join(dir, 'flows'));
      await writeFile(join(dir, 'flows', 'b.js'), broken);
    });
    expect(JSON.parse(toolOutput(result).output)).toMatchObject({
      status: 'failed',
      reason: 'flows/b.js:3: Error: boom',
    });
    const outside = await runMain({ scriptPath: '/etc/hostname' });
    expect(toolOutput(outside.result).output).toMatch(/^scriptPath: .*outside/);
  });

  it('refuses a script without meta, naming the fix', async () => {
    const { result } = await runMain({ script: 'await agent("x");' });
    expect(toolOutput(result).output).toMatch(
      /has no `export const meta = \{ name, description \}`/,
    );
  });

  describe('as a background task (the default)', () => {
    /** Main: the Workflow call, then waits; its last answer echoes the notification. */
    function backgroundAnswer(workflowInput: Record<string, unknown>) {
      const items = answer(workflowInput);
      return (request: ReactiveRequest): ScriptTurn => {
        if (request.firstUser.startsWith('ITEM')) return items(request);
        if (request.lastUser.includes('<task-notification>')) {
          return { text: `NOTIFIED ${request.lastUser}` };
        }
        if (request.lastToolResult?.includes('"run_id"')) return { text: 'started; waiting' };
        return { toolCalls: [{ name: 'Workflow', input: workflowInput }] };
      };
    }

    it("returns the run's task id at once; the summary arrives as its task notification", async () => {
      const model = new ReactiveModel(
        backgroundAnswer({ script: SCRIPT, args: { words: ['a', 'b'] } }),
      );
      const order: string[] = [];
      const run = query({
        prompt: 'MAIN run the workflow',
        options: {
          ...(await echoRunOptions(model)),
          onEvent: (event) => {
            if (event.type === 'tool_end' && event.toolName === 'Workflow') order.push('answered');
          },
          workflows: {
            onEvent: (event) => {
              if (event.type === 'workflow_item') order.push(`item ${event.status}`);
            },
          },
        },
      });
      const { result, events } = await runToEnd(run);
      const started = JSON.parse(toolOutput(result).output.split('\n')[0]!);
      expect(started).toMatchObject({ status: 'running', run_id: expect.stringMatching(/^wf_/) });
      // The run's events reach the library's stream while it runs in the background.
      expect(events.find((event) => event.type === 'workflow_end')).toMatchObject({
        agentId: result.agentId,
        status: 'completed',
      });
      // The call answered before any item ended.
      expect(order.indexOf('answered')).toBeGreaterThanOrEqual(0);
      expect(order.indexOf('answered')).toBeLessThan(order.indexOf('item completed'));
      const task = run.tasks.list().find((record) => record.taskId === started.task_id)!;
      expect(task).toMatchObject({
        kind: 'local_workflow',
        status: 'completed',
        description: 'workflow shout',
      });
      const notices = result.messages.flatMap((m) =>
        m.role === 'user' && m.content.includes('<task-notification>') ? [m.content] : [],
      );
      // Only the workflow's own notification: its items' endings were read by the workflow.
      expect(notices).toHaveLength(1);
      expect(notices[0]!.match(/<task-notification>/g)).toHaveLength(1);
      expect(notices[0]).toContain(`<task-id>${started.task_id}</task-id>`);
      expect(notices[0]).toContain('"status":"completed"');
      expect(notices[0]).toContain('"words":["A","B"]');
      expect(result.result).toMatch(/^NOTIFIED /);
    });

    it('is paused by TaskStop, its running items stopped, and says how far it got in TaskOutput', async () => {
      const hold = readOnlyTool({
        name: 'Hold',
        description: 'holds until stopped',
        call: (_input, ctx) =>
          new Promise<string>((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))),
          ),
      });
      const items = answer({});
      let taskId = '';
      const model = new ReactiveModel((request) => {
        if (request.firstUser === 'ITEM shout hold') {
          return request.lastToolResult === undefined
            ? { toolCalls: [{ name: 'Hold', input: {} }] }
            : { text: 'was stopped' };
        }
        if (request.firstUser.startsWith('ITEM')) return items(request);
        // The main agent: Workflow, then TaskOutput, TaskStop, and its final words.
        const last = request.lastToolResult ?? '';
        if (last.includes('The workflow runs in the background')) {
          taskId = JSON.parse(last.split('\n')[0]!).task_id;
          return { toolCalls: [{ name: 'TaskOutput', input: { task_id: taskId, block: false } }] };
        }
        if (last.includes('items so far') && last.includes('"status":"running"')) {
          return { toolCalls: [{ name: 'TaskStop', input: { task_id: taskId } }] };
        }
        if (request.lastToolResult !== undefined) return { text: 'stopped it' };
        const input = { script: SCRIPT, args: { words: ['a', 'hold'] } };
        return { toolCalls: [{ name: 'Workflow', input }] };
      });
      const events: WorkflowEvent[] = [];
      const base = await echoRunOptions(model);
      const run = query({
        prompt: 'MAIN run the workflow',
        options: {
          ...base,
          tools: [...base.tools, hold],
          workflows: { onEvent: (event) => events.push(event) },
        },
      });
      const { result } = await runToEnd(run);
      const outputs = result.messages.flatMap((m) =>
        m.role === 'tool' ? m.content.map((part) => `${part.toolName}: ${part.output}`) : [],
      );
      expect(outputs.filter((o) => o.startsWith('TaskStop'))).toHaveLength(1);
      expect(outputs.find((o) => o.startsWith('TaskOutput'))).toMatch(
        /items so far: \d+ completed, 0 failed, \d+ running/,
      );
      const task = run.tasks.list().find((record) => record.kind === 'local_workflow')!;
      expect(task.status).toBe('cancelled');
      expect(events.at(-1)).toMatchObject({ type: 'workflow_end', status: 'paused' });
      expect(result.result).toBe('stopped it');
    });
  });
});
