// The stall watchdog through query(): a child whose model stream hangs is stopped as `stalled`,
// foreground or background, and its parent goes on with what it had; a slow tool is not a stall.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf, RunResult } from '../core/events.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { query } from '../query.js';
import { unframed } from '../testing/framed-output.js';
import { runToEnd } from '../testing/run-events.js';
import { echoTool, readOnlyTool } from '../testing/stub-tools.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { StallWatchdog } from './stall-watchdog.js';

const slowTool = readOnlyTool({
  name: 'Slow',
  description: 'takes a while',
  call: () => new Promise<string>((resolve) => setTimeout(() => resolve('slow result'), 300)),
});

async function run(turns: ScriptTurn[]): Promise<{ result: RunResult; events: AgentEvent[] }> {
  const generator = query({
    prompt: 'MAIN',
    options: {
      model: scriptedModel(turns),
      tools: [echoTool, slowTool],
      cwd: await makeTempDir(),
      stallTimeoutMs: 100,
    },
  });
  return runToEnd(generator);
}

const childResult = (events: AgentEvent[]) =>
  events.find(
    (event): event is AgentEventOf<'result'> => event.type === 'result' && event.depth === 1,
  );

describe('the stall watchdog', () => {
  it('stops a foreground child whose model stream hangs; the parent gets its last words', async () => {
    const { result, events } = await run([
      {
        match: { prompt: 'MAIN' },
        toolCalls: [{ name: 'Agent', input: { description: 'x', prompt: 'HANGS' } }],
      },
      {
        match: { prompt: 'HANGS' },
        text: 'FIRST-STEP done',
        toolCalls: [{ name: 'Echo', input: { text: 'x' } }],
      },
      { match: { lastToolResult: 'echo: x' }, delayMs: 60_000, text: 'never' },
      { match: { lastToolResult: 'stalled' }, text: 'The helper stalled; carrying on.' },
    ]);
    expect(childResult(events)).toMatchObject({
      status: 'stalled',
      subtype: 'error_during_execution',
      error: 'Stalled: no model output and no tool activity for 100 ms, so the agent was stopped.',
    });
    const output = result.messages.flatMap((m) => (m.role === 'tool' ? m.content : []))[0]!;
    expect(output.isError).toBe(true);
    expect(output.output).toMatch(/^The general-purpose agent stalled: Stalled: no model output/);
    expect(unframed(output.output)).toMatch(/Its last message:\nFIRST-STEP done/);
    expect(result.result).toBe('The helper stalled; carrying on.');
  });

  it('does not count a slow tool as a stall', async () => {
    const { events } = await run([
      {
        match: { prompt: 'MAIN' },
        toolCalls: [{ name: 'Agent', input: { description: 'x', prompt: 'SLOW' } }],
      },
      { match: { prompt: 'SLOW' }, toolCalls: [{ name: 'Slow', input: {} }] },
      { match: { lastToolResult: 'slow result' }, text: 'finished slowly' },
      { match: { lastToolResult: 'finished slowly' }, text: 'ok' },
    ]);
    expect(childResult(events)).toMatchObject({ status: 'completed', result: 'finished slowly' });
  });

  it('does not count waiting for its own background children as a stall', async () => {
    const { events } = await run([
      {
        match: { prompt: 'MAIN' },
        toolCalls: [{ name: 'Agent', input: { description: 'x', prompt: 'OWNER' } }],
      },
      {
        match: { prompt: 'OWNER' },
        toolCalls: [
          {
            name: 'Agent',
            input: { description: 'y', prompt: 'GRANDCHILD', run_in_background: true },
          },
        ],
      },
      // The grandchild is busy in a slow tool (not a stall) for longer than the stall timeout.
      { match: { prompt: 'GRANDCHILD' }, toolCalls: [{ name: 'Slow', input: {} }] },
      { match: { lastToolResult: 'slow result' }, text: 'grandchild done' },
      { match: { lastToolResult: '"task_id"' }, text: 'owner waits' },
      { match: { prompt: '<task-notification>' }, text: 'owner done with the grandchild' },
      { match: { lastToolResult: 'owner done' }, text: 'ok' },
    ]);
    expect(childResult(events)).toMatchObject({
      status: 'completed',
      result: 'owner done with the grandchild',
    });
  });

  it('stops a background child too; the notification says it stalled', async () => {
    const { result } = await run([
      {
        match: { prompt: 'MAIN' },
        toolCalls: [
          { name: 'Agent', input: { description: 'x', prompt: 'HANGS', run_in_background: true } },
        ],
      },
      { match: { prompt: 'HANGS' }, delayMs: 60_000, text: 'never' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { prompt: '<task-notification>' }, text: 'noted the stall' },
    ]);
    const notification = result.messages.find(
      (m) => m.role === 'user' && m.content.includes('<task-notification>'),
    );
    expect(notification?.content).toContain('<status>failed</status>');
    expect(notification?.content).toContain('<agent-status>stalled</agent-status>');
    expect(result.result).toBe('noted the stall');
  });
});

describe('StallWatchdog under a parent signal', () => {
  it("aborts as its parent does, with the parent's reason", () => {
    const parent = new AbortController();
    const watchdog = new StallWatchdog('a', Number.POSITIVE_INFINITY, undefined, parent.signal);

    parent.abort(new Error('cancelled by the user'));

    expect(watchdog.signal.aborted).toBe(true);
    expect((watchdog.signal.reason as Error).message).toBe('cancelled by the user');
  });

  it('starts aborted under a parent already aborted', () => {
    const parent = new AbortController();
    parent.abort(new Error('too late'));

    const watchdog = new StallWatchdog('a', Number.POSITIVE_INFINITY, undefined, parent.signal);

    expect((watchdog.signal.reason as Error).message).toBe('too late');
  });

  it('lets go of the parent once stopped', () => {
    const parent = new AbortController();
    const watchdog = new StallWatchdog('a', Number.POSITIVE_INFINITY, undefined, parent.signal);

    watchdog.stop();
    parent.abort();

    expect(watchdog.signal.aborted).toBe(false);
  });
});
