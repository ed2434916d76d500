// TaskOutput, TaskStop, SendMessage and ListAgents as a model uses them: ids only known at run
// time come back from the reactive model, which answers from what it was sent.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { type Query, type QueryOptions, query } from '../query.js';
import { echoRunOptions } from '../testing/echo-run-options.js';
import { ReactiveModel, type ReactiveRequest } from '../testing/reactive-model.js';
import { ofType, runToEnd } from '../testing/run-events.js';

async function runQuery(
  answer: (request: ReactiveRequest) => ScriptTurn,
  options: Partial<QueryOptions> = {},
): Promise<{ result: RunResult; events: AgentEvent[]; run: Query; model: ReactiveModel }> {
  const model = new ReactiveModel(answer);
  const run = query({ prompt: 'MAIN', options: { ...(await echoRunOptions(model)), ...options } });
  return { ...(await runToEnd(run)), run, model };
}

const call = (name: string, input: Record<string, unknown>): ScriptTurn => ({
  toolCalls: [{ name, input }],
});
const taskIdIn = (text: string | undefined) => /task_[0-9a-f]{8}/.exec(text ?? '')?.[0];
const agentIdIn = (text: string | undefined) => /agent_[0-9a-f]{8}/.exec(text ?? '')?.[0];
const toolEnds = (events: AgentEvent[], name: string) =>
  ofType(events, 'tool_end').filter((event) => event.toolName === name);

describe('TaskStop', () => {
  it('stops a background child in the middle of its model call; the partial result is kept as cancelled', async () => {
    const { result, events, run } = await runQuery((request) => {
      if (request.lastUser.startsWith('HANGS')) return { delayMs: 60_000, text: 'never' };
      const stopped = request.lastToolResult;
      if (stopped?.includes('"status":"cancelled"')) return { text: 'It is stopped.' };
      const launched = taskIdIn(request.lastToolResult);
      if (launched) return call('TaskStop', { task_id: launched });
      return call('Agent', {
        description: 'hang',
        prompt: 'HANGS forever',
        run_in_background: true,
      });
    });
    expect(result.result).toBe('It is stopped.');
    const stop = toolEnds(events, 'TaskStop')[0]!;
    expect(stop.isError).toBe(false);
    expect(stop.output).toMatch(/"status":"cancelled"/);
    expect(stop.output).toMatch(/Stopped\./);
    const [task] = run.tasks.list();
    expect(task).toMatchObject({ status: 'cancelled', agentStatus: 'cancelled' });
    expect(task?.error).toMatch(/Stopped by TaskStop/);
    // The owner has the ending from TaskStop: no notification repeats it.
    expect(task?.notifiedAt).toBeTypeOf('number');
    expect(JSON.stringify(result.messages)).not.toContain('<task-notification>');
    expect(ofType(events, 'result').find((e) => e.depth === 1)?.status).toBe('cancelled');
  });

  it('refuses a task the caller may not use, listing its own', async () => {
    const { events } = await runQuery((request) =>
      request.lastToolResult ? { text: 'ok' } : call('TaskStop', { task_id: 'task_nope' }),
    );
    expect(toolEnds(events, 'TaskStop')[0]).toMatchObject({
      isError: true,
      output: 'No task "task_nope" that you may use. Your tasks: none.',
    });
  });
});

describe('TaskOutput', () => {
  it('times out while the task runs, then blocks until it ends with its result', async () => {
    const { result, events, run } = await runQuery((request) => {
      if (request.lastUser.startsWith('SLOW')) return { delayMs: 300, text: 'slow answer' };
      const last = request.lastToolResult ?? '';
      if (last.includes('slow answer')) return { text: 'Got it: slow answer' };
      const taskId = taskIdIn(request.text);
      if (last.includes('Still running')) return call('TaskOutput', { task_id: taskId });
      if (taskId) return call('TaskOutput', { task_id: taskId, timeout_ms: 20 });
      return call('Agent', { description: 'slow', prompt: 'SLOW one', run_in_background: true });
    });
    const [timedOut, blocked] = toolEnds(events, 'TaskOutput');
    expect(timedOut?.output).toMatch(/"status":"running"/);
    expect(timedOut?.output).toMatch(/Still running after waiting 20 ms/);
    expect(blocked?.output).toMatch(/"status":"completed"/);
    expect(blocked?.output).toMatch(/Result:\nslow answer/);
    expect(result.result).toBe('Got it: slow answer');
    // Read through TaskOutput: no notification follows, and the store says delivered.
    expect(JSON.stringify(result.messages)).not.toContain('<task-notification>');
    expect(run.tasks.list()[0]?.notifiedAt).toBeTypeOf('number');
  });

  it('with block: false returns at once with the output so far', async () => {
    const { events } = await runQuery((request) => {
      if (request.lastUser.startsWith('SLOW')) return { delayMs: 200, text: 'later' };
      if (request.lastUser.includes('<task-notification>')) return { text: 'done' };
      const last = request.lastToolResult ?? '';
      if (last.includes('Output so far')) return { text: 'checked' };
      const taskId = taskIdIn(last);
      if (taskId) return call('TaskOutput', { task_id: taskId, block: false });
      return call('Agent', { description: 'slow', prompt: 'SLOW', run_in_background: true });
    });
    expect(toolEnds(events, 'TaskOutput')[0]?.output).toMatch(
      /"status":"running"[\s\S]*Output so far:\n\(nothing yet\)/,
    );
  });
});

describe('SendMessage', () => {
  it('continues a completed agent by name with its whole history, in the background', async () => {
    const { result, model, events } = await runQuery((request) => {
      if (request.lastUser.includes('SECOND question')) return { text: 'scout answer two' };
      if (request.lastUser.startsWith('SCOUT first')) return { text: 'scout answer one' };
      if (request.lastUser.includes('<task-notification>')) return { text: 'FINAL two answers' };
      const last = request.lastToolResult ?? '';
      if (last.includes('"task_id"')) return { text: 'waiting for the scout' };
      if (last.includes('scout answer one')) {
        return call('SendMessage', { to: 'scout', message: 'SECOND question, please' });
      }
      return call('Agent', { description: 'scout', prompt: 'SCOUT first look', name: 'scout' });
    });
    expect(result.result).toBe('FINAL two answers');
    const resumed = model.calls.find((c) => c.lastUser.includes('SECOND question'))!;
    expect(resumed.text).toContain('SCOUT first look');
    expect(resumed.text).toContain('scout answer one');
    expect(resumed.lastUser).toMatch(/<agent-message from="main_\w+" path="main">/);
    expect(resumed.lastUser).toMatch(/never a user instruction or approval/);
    const scouts = events.filter((e) => e.type === 'run_start' && e.depth === 1);
    expect(new Set(scouts.map((e) => e.agentId)).size).toBe(1);
    expect(JSON.stringify(result.messages)).toContain('scout answer two');
  });

  it('continues a stopped agent by id', async () => {
    const { result, model } = await runQuery((request) => {
      if (request.lastUser.includes('WAKE up')) return { text: 'awake now' };
      if (request.lastUser.startsWith('NAPPER')) return { delayMs: 60_000, text: 'never' };
      if (request.lastUser.includes('<task-notification>')) return { text: 'FINAL awake' };
      const last = request.lastToolResult ?? '';
      if (last.includes('continues with its whole conversation')) return { text: 'waiting' };
      if (last.includes('"status":"cancelled"')) {
        return call('SendMessage', { to: agentIdIn(request.text), message: 'WAKE up' });
      }
      const taskId = taskIdIn(last);
      if (taskId) return call('TaskStop', { task_id: taskId });
      return call('Agent', {
        description: 'nap',
        prompt: 'NAPPER sleeps',
        run_in_background: true,
      });
    });
    expect(result.result).toBe('FINAL awake');
    const resumed = model.calls.find((c) => c.lastUser.includes('WAKE up'))!;
    expect(resumed.text).toContain('NAPPER sleeps');
  });

  it('reaches a running agent before its next step', async () => {
    const { model } = await runQuery((request) => {
      if (request.lastUser.includes('HURRY')) return { text: 'hurried' };
      if (request.lastUser.startsWith('WORKER')) {
        return { delayMs: 50, toolCalls: [{ name: 'Echo', input: { text: 'step' } }] };
      }
      if (request.lastToolResult === 'echo: step') return { text: 'worker done' };
      if (request.lastUser.includes('<task-notification>')) return { text: 'done' };
      const last = request.lastToolResult ?? '';
      if (last.startsWith('Delivered')) return { text: 'waiting' };
      if (last.includes('"task_id"')) {
        return call('SendMessage', { to: 'worker', message: 'HURRY up' });
      }
      return call('Agent', {
        description: 'work',
        prompt: 'WORKER go',
        name: 'worker',
        run_in_background: true,
      });
    });
    const hurried = model.calls.find((c) => c.lastUser.includes('HURRY up'));
    expect(hurried?.text).toContain('WORKER go');
    expect(hurried?.text).toContain('echo: step');
  });

  it('reaches a sibling, never an unrelated branch', async () => {
    const { events, result } = await runQuery((request) => {
      const last = request.lastToolResult ?? '';
      if (request.lastUser.includes('<agent-message')) return { text: 'left heard it' };
      if (request.lastUser.startsWith('INNER')) return { text: 'inner done' };
      if (request.lastUser.startsWith('LEFT')) {
        if (last) return { text: 'left done' };
        return call('Agent', { description: 'inner', prompt: 'INNER work', name: 'left-child' });
      }
      if (request.firstUser === 'RIGHT side') {
        if (request.lastUser.includes('<task-notification>')) return { text: 'RIGHT-FINISHED' };
        if (last.includes('continues')) return { text: 'right waits' };
        if (last) return call('SendMessage', { to: 'left', message: 'hello sibling' });
        return call('SendMessage', { to: 'left-child', message: 'hello nephew' });
      }
      if (last.includes('RIGHT-FINISHED')) return { text: 'MAIN-FINISHED' };
      if (last.includes('left done')) {
        return call('Agent', { description: 'right', prompt: 'RIGHT side' });
      }
      return call('Agent', { description: 'left', prompt: 'LEFT side', name: 'left' });
    });
    expect(result.result).toBe('MAIN-FINISHED');
    const [nephew, sibling] = toolEnds(events, 'SendMessage');
    expect(nephew?.isError).toBe(true);
    expect(nephew?.output).toMatch(/No agent "left-child" that you may address/);
    expect(nephew?.output).toMatch(
      /You may address: main\/Agent#1\/general-purpose "left" \(agent_\w+\)\.$/,
    );
    expect(sibling?.isError).toBe(false);
  });
});

describe('ListAgents', () => {
  it('shows the caller its children with path, name, type and status', async () => {
    const { events } = await runQuery((request) => {
      if (request.lastUser.startsWith('FINDER')) return { text: 'found' };
      const last = request.lastToolResult ?? '';
      if (last.includes('main/')) return { text: 'listed' };
      if (last.includes('found')) return call('ListAgents', {});
      return call('Agent', {
        description: 'find',
        prompt: 'FINDER',
        name: 'finder',
        subagent_type: 'explore',
      });
    });
    expect(toolEnds(events, 'ListAgents')[0]?.output).toMatch(
      /^main\/Agent#1\/explore {2}agent_\w+ {2}name=finder {2}type=explore {2}status=completed {2}last activity \d+ s ago {2}"find"$/,
    );
  });
});
