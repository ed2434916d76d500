// A foreground child sent to the background while it runs (query()'s sendToBackground, Ctrl+B in
// the terminal UI): its Agent call returns its task at once, the child goes on as a background
// task, and its parent is notified when it ends, as for a child started in the background.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf, RunResult } from '../core/events.js';
import { scriptedModel } from '../model/scripted-model.js';
import { type Query, type QueryOptions, query } from '../query.js';
import { echoTool } from '../testing/stub-tools.js';
import { makeTempDir } from '../testing/temp-dir.js';

const foreground = (prompt: string) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 20), prompt },
});

/** Runs the query; `onEvent` sees each event of the stream as it comes, with the handle. */
async function runQuery(
  model: QueryOptions['model'],
  onEvent: (event: AgentEvent, run: Query) => void,
  options: Partial<QueryOptions> = {},
): Promise<{ result: RunResult; events: AgentEvent[]; run: Query }> {
  const run = query({
    prompt: 'MAIN task',
    options: { model, tools: [echoTool], cwd: await makeTempDir(), ...options },
  });
  const events: AgentEvent[] = [];
  let step = await run.next();
  while (!step.done) {
    events.push(step.value);
    onEvent(step.value, run);
    step = await run.next();
  }
  return { result: step.value, events, run };
}

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is AgentEventOf<T> => event.type === type);

describe('sending a foreground child to the background', () => {
  it('returns its call at once; the child finishes as a task and its parent is notified', async () => {
    const model = scriptedModel([
      { match: { agent: '/^main$/', prompt: 'MAIN' }, toolCalls: [foreground('FG-TASK read')] },
      { match: { prompt: 'FG-TASK' }, delayMs: 300, text: 'The child read it all.' },
      { match: { lastToolResult: '"status":"running"' }, text: 'Sent away; waiting.' },
      { match: { prompt: '<task-notification>' }, text: 'FINAL: it read it all' },
    ]);
    let sent: string[] = [];
    const { result, events, run } = await runQuery(model, (event, handle) => {
      if (event.type === 'run_start' && event.depth === 1) sent = handle.sendToBackground();
    });
    expect(result).toMatchObject({ status: 'completed', result: 'FINAL: it read it all' });
    const childStart = ofType(events, 'run_start').find((event) => event.depth === 1)!;
    expect(sent).toEqual([childStart.agentId]);
    // The call returned the task before the child was done, and the parent went on.
    const [call] = ofType(events, 'tool_end').filter((event) => event.toolName === 'Agent');
    const launched = JSON.parse(call!.output.split('\n')[0]!);
    expect(launched).toMatchObject({ agent_id: childStart.agentId, status: 'running' });
    expect(call!.output).toMatch(/You will be notified with its result when it finishes/);
    const childEnd = events.findIndex((e) => e.type === 'result' && e.depth === 1);
    const secondTurn = events.findIndex(
      (e) => e.type === 'turn_start' && e.depth === 0 && e.turn === 2,
    );
    expect(secondTurn).toBeLessThan(childEnd);
    expect(run.tasks.list()).toEqual([
      expect.objectContaining({
        taskId: launched.task_id,
        kind: 'local_agent',
        agentId: childStart.agentId,
        agentType: 'general-purpose',
        status: 'completed',
        result: 'The child read it all.',
      }),
    ]);
    expect(ofType(events, 'task_notification')).toEqual([
      expect.objectContaining({ taskId: launched.task_id, status: 'completed' }),
    ]);
    const notified = result.messages.find(
      (message) => message.role === 'user' && message.content.includes('<task-notification>'),
    );
    expect(notified?.content).toContain('The child read it all.');
    model.assertComplete();
  });

  it("keeps the child running when the parent's turn is interrupted after it was sent", async () => {
    const model = scriptedModel([
      { match: { agent: '/^main$/', prompt: 'MAIN' }, toolCalls: [foreground('FG-TASK slow')] },
      { match: { prompt: 'FG-TASK' }, delayMs: 400, text: 'Slow child done.' },
      // First: the interrupted turn below is not used up, and its match still fits.
      { match: { prompt: '<task-notification>' }, text: 'Heard back.' },
      { match: { lastToolResult: '"status":"running"' }, delayMs: 5000, text: 'never' },
    ]);
    const { result, events, run } = await runQuery(model, (event, handle) => {
      if (event.type === 'run_start' && event.depth === 1) handle.sendToBackground();
      // The parent's next turn starts: stop it, as Esc does.
      if (event.type === 'turn_start' && event.depth === 0 && event.turn === 2) handle.interrupt();
    });
    expect(result).toMatchObject({ status: 'completed', result: 'Heard back.' });
    expect(ofType(events, 'result').find((e) => e.depth === 1)).toMatchObject({
      status: 'completed',
    });
    expect(run.tasks.list()[0]).toMatchObject({ status: 'completed', result: 'Slow child done.' });
  });

  it('stops with the task when the host stops it, reported as cancelled', async () => {
    const model = scriptedModel([
      { match: { agent: '/^main$/', prompt: 'MAIN' }, toolCalls: [foreground('FG-TASK forever')] },
      // First: the child's stopped turn is not used up, and the notification names its task.
      { match: { prompt: '<task-notification>' }, text: 'It was stopped.' },
      { match: { prompt: 'FG-TASK' }, delayMs: 60_000, text: 'never' },
      { match: { lastToolResult: '"status":"running"' }, text: 'Sent away.' },
    ]);
    const { result, events, run } = await runQuery(model, (event, handle) => {
      if (event.type === 'run_start' && event.depth === 1) handle.sendToBackground();
      if (event.type === 'task_started') void handle.tasks.stop(event.taskId);
    });
    expect(result).toMatchObject({ status: 'completed', result: 'It was stopped.' });
    expect(ofType(events, 'task_notification')[0]).toMatchObject({ status: 'cancelled' });
    expect(run.tasks.list()[0]).toMatchObject({ status: 'cancelled' });
  });

  it('sends nothing when no foreground child runs', async () => {
    const model = scriptedModel([{ text: 'Nothing to send.' }]);
    let sent: string[] | undefined;
    const { result } = await runQuery(model, (event, handle) => {
      if (event.type === 'run_start') sent = handle.sendToBackground();
    });
    expect(result.result).toBe('Nothing to send.');
    expect(sent).toEqual([]);
  });
});
