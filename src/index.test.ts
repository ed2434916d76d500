// The library as a user writes against it: everything from the public entry points.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, defineTool, query, type RunResult } from './index.js';
import { TaskManager, TaskStore } from './tasks.js';
import { makeTempDir } from './testing/temp-dir.js';
import { scriptedModel } from './testing.js';

describe('the public API', () => {
  it('runs query() with custom tools and programmatic agent definitions', async () => {
    const weather = defineTool({
      name: 'Weather',
      description: 'Current weather in a city.',
      inputSchema: z.object({ city: z.string() }),
      isReadOnly: true,
      isConcurrencySafe: true,
      async call({ city }) {
        return `${city}: 21°C, clear`;
      },
    });
    const model = scriptedModel([
      {
        toolCalls: [
          {
            name: 'Agent',
            input: {
              description: 'check weather',
              prompt: 'WEATHER-TASK Oslo',
              subagent_type: 'forecaster',
            },
          },
        ],
      },
      {
        match: { prompt: 'WEATHER-TASK' },
        toolCalls: [{ name: 'Weather', input: { city: 'Oslo' } }],
      },
      { match: { lastToolResult: '21°C' }, text: 'Oslo is 21°C and clear.' },
      { text: 'It is a fine day in Oslo.' },
    ]);

    const events: AgentEvent[] = [];
    let result: RunResult | undefined;
    for await (const event of query({
      prompt: 'Is it a nice day in Oslo?',
      options: {
        model,
        tools: [weather],
        agents: {
          forecaster: {
            description: 'Answers weather questions.',
            prompt: 'You are a forecaster.',
            tools: ['Weather'],
            maxTurns: 3,
          },
        },
      },
    })) {
      events.push(event);
      if (event.type === 'result' && event.depth === 0) result = event;
    }

    expect(result).toMatchObject({ status: 'completed', result: 'It is a fine day in Oslo.' });
    const child = events.find((event) => event.type === 'run_start' && event.depth === 1);
    expect(child).toMatchObject({ agentType: 'forecaster', tools: ['Weather'] });
    model.assertComplete();
  });

  it('denies calls that would need permission when no policy is given', async () => {
    const cwd = await makeTempDir();
    const model = scriptedModel([
      { toolCalls: [{ name: 'Write', input: { file_path: 'x.txt', content: 'hi' } }] },
      { text: 'could not write' },
    ]);
    let result: RunResult | undefined;
    for await (const event of query({ prompt: 'write', options: { model, cwd } })) {
      if (event.type === 'result') result = event;
    }
    const denial = result?.messages.find((message) => message.role === 'tool');
    expect(denial?.content[0]).toMatchObject({ isError: true });
    expect(denial?.content[0]?.output).toMatch(/Permission to use Write/);
    expect(existsSync(join(cwd, 'x.txt'))).toBe(false);
  });

  it('rejects a programmatic definition that cannot be used, naming it', async () => {
    const run = query({
      prompt: 'x',
      options: {
        model: scriptedModel([{ text: 'x' }]),
        agents: { broken: { description: 'no prompt' } as never },
      },
    });
    await expect(run.next()).rejects.toThrow(/agents\.broken/);
  });

  it('keeps background tasks in a file store the host gives, and hands the host the tasks', async () => {
    const dir = await makeTempDir();
    const tasks = new TaskManager({ store: TaskStore.open(join(dir, 'tasks.db')) });
    const model = scriptedModel([
      {
        match: { prompt: 'START' },
        toolCalls: [
          {
            name: 'Agent',
            input: { description: 'bg', prompt: 'BG work', run_in_background: true },
          },
        ],
      },
      { match: { prompt: 'BG work' }, text: 'background result' },
      { match: { lastToolResult: '"task_id"' }, text: 'not waiting' },
    ]);
    const run = query({ prompt: 'START', options: { model, tasks, waitForBackground: false } });
    for await (const _event of run);
    const [task] = await run.tasks.waitAll();
    expect(task).toMatchObject({ status: 'completed', result: 'background result' });
    tasks.store.close();
    const reread = TaskStore.read(join(dir, 'tasks.db'));
    expect(reread.list()).toEqual([expect.objectContaining({ taskId: task?.taskId })]);
    reread.close();
  });
});
