// No-progress detection, for every agent: a looping model is told after three identical batches
// and stopped as `no_progress` at the fourth; its siblings under the same parent go on.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf, RunResult } from '../core/events.js';
import type { Tool } from '../core/tool.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { query } from '../query.js';
import { echoRunOptions, NO_WAIT_RETRY } from '../testing/echo-run-options.js';
import { ReactiveModel, type ReactiveRequest } from '../testing/reactive-model.js';
import { runToEnd } from '../testing/run-events.js';
import { echoTool, readOnlyTool } from '../testing/stub-tools.js';
import { agentLoop } from './agent-loop.js';
import { NO_PROGRESS_NOTICE } from './no-progress.js';

const userTexts = (result: RunResult) =>
  result.messages.flatMap((message) =>
    message.role === 'user' && typeof message.content === 'string' ? [message.content] : [],
  );

async function loop(answer: (request: ReactiveRequest) => ScriptTurn, tools: Tool[] = [echoTool]) {
  const model = new ReactiveModel(answer);
  const options = { model, tools, retry: NO_WAIT_RETRY };
  const { result } = await runToEnd(agentLoop({ prompt: 'LOOP', options }));
  return { result, model };
}

describe('no-progress detection', () => {
  it('tells the agent after three identical batches and stops it as no_progress at the fourth', async () => {
    const { result, model } = await loop(() => ({
      toolCalls: [{ name: 'Echo', input: { text: 'same' } }],
    }));
    expect(result).toMatchObject({
      status: 'no_progress',
      subtype: 'error_during_execution',
      isError: true,
      toolCalls: 4,
    });
    expect(result.error).toMatch(
      /^No progress: the same tool calls \(Echo\) with the same results 4 times/,
    );
    // Four model calls, no grace turn: the notice came once, after the third batch.
    expect(model.calls).toHaveLength(4);
    expect(userTexts(result).filter((text) => text === NO_PROGRESS_NOTICE)).toHaveLength(1);
    expect(model.calls[3]!.lastUser).toBe(NO_PROGRESS_NOTICE);
    expect(model.calls[2]!.text).not.toContain('no progress');
  });

  it('lets the agent finish when it changes course after the notice', async () => {
    const { result } = await loop((request) =>
      request.lastUser === NO_PROGRESS_NOTICE
        ? { text: 'giving up on that, here is what I have' }
        : { toolCalls: [{ name: 'Echo', input: { text: 'same' } }] },
    );
    expect(result).toMatchObject({
      status: 'completed',
      result: 'giving up on that, here is what I have',
    });
  });

  it('does not count the same call whose result changes (polling) as no progress', async () => {
    let polls = 0;
    const poll = readOnlyTool({
      name: 'Poll',
      description: 'a status that changes',
      call: async () => `status ${++polls}`,
    });
    const { result } = await loop(
      (request) =>
        request.lastToolResult === 'status 6'
          ? { text: 'ready' }
          : { toolCalls: [{ name: 'Poll', input: {} }] },
      [poll],
    );
    expect(result).toMatchObject({ status: 'completed', result: 'ready', toolCalls: 6 });
    expect(userTexts(result)).not.toContain(NO_PROGRESS_NOTICE);
  });

  it('does not count waiting on a background task with TaskOutput as no progress', async () => {
    let asked = 0;
    const taskOutput = readOnlyTool({
      name: 'TaskOutput',
      description: 'the task, still running',
      call: async () => '{"task_id":"task_1","status":"running"}',
    });
    const { result } = await loop(
      () =>
        ++asked > 6
          ? { text: 'gave up waiting' }
          : { toolCalls: [{ name: 'TaskOutput', input: {} }] },
      [taskOutput],
    );
    expect(result).toMatchObject({ status: 'completed', toolCalls: 6 });
    expect(userTexts(result)).not.toContain(NO_PROGRESS_NOTICE);
  });

  it('stops a looping child alone; its siblings finish and the parent goes on', async () => {
    const model = new ReactiveModel((request) => {
      const task = request.firstUser;
      if (task === 'LOOPER') return { toolCalls: [{ name: 'Echo', input: { text: 'again' } }] };
      if (task.startsWith('SIBLING')) {
        return request.lastToolResult === undefined
          ? { toolCalls: [{ name: 'Echo', input: { text: task } }] }
          : { text: `${task} done` };
      }
      if (request.lastToolResult === undefined) {
        return {
          toolCalls: ['SIBLING one', 'LOOPER', 'SIBLING two'].map((prompt) => ({
            name: 'Agent',
            input: { description: prompt.toLowerCase(), prompt },
          })),
        };
      }
      return { text: 'MAIN finished' };
    });
    const options = await echoRunOptions(model);
    const run = query({ prompt: 'MAIN', options });
    const { result, events } = await runToEnd(run);
    const children = events.filter(
      (event): event is AgentEventOf<'result'> => event.type === 'result' && event.depth === 1,
    );
    expect(children.map(({ description, status }) => [description, status]).sort()).toEqual([
      ['looper', 'no_progress'],
      ['sibling one', 'completed'],
      ['sibling two', 'completed'],
    ]);
    expect(result).toMatchObject({ status: 'completed', result: 'MAIN finished' });
    const outputs = toolOutputs(result);
    expect(outputs.find((output) => output.includes('made no progress'))).toMatch(
      /^The general-purpose agent made no progress: No progress: the same tool calls \(Echo\)/,
    );
    expect(outputs.filter((output) => /SIBLING (one|two) done/.test(output))).toHaveLength(2);
    expect(countEvents(events, 'result')).toBe(4);
  });
});

function toolOutputs(result: RunResult): string[] {
  return result.messages.flatMap((message) =>
    message.role === 'tool' ? message.content.map((part) => part.output) : [],
  );
}

function countEvents(events: AgentEvent[], type: AgentEvent['type']): number {
  return events.filter((event) => event.type === type).length;
}
