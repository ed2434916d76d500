// The loop's StepRunner seam: every model call and every tool call is a step, and a runner that
// journals them can replay a run without calling the model or a tool again.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LoopStep, StepRunner } from '../core/step-runner.js';
import { defineTool, FatalToolError, type Tool } from '../core/tool.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { runToEnd } from '../testing/run-events.js';
import { agentLoop } from './agent-loop.js';

type Recorded =
  | { step: LoopStep; ok: true; value: unknown }
  | { step: LoopStep; ok: false; error: { name: string; message: string; fatal?: boolean } };

/** A journal in memory: records each step's outcome, or answers from the record on a replay. */
class MemoryJournal implements StepRunner {
  readonly entries: Recorded[] = [];
  #replayAt: number | undefined;

  replay(): this {
    this.#replayAt = 0;
    return this;
  }

  async run<T>(step: LoopStep, work: () => Promise<T>): Promise<T> {
    if (this.#replayAt !== undefined && this.#replayAt < this.entries.length) {
      const entry = this.entries[this.#replayAt++]!;
      expect(entry.step).toEqual(step);
      if (entry.ok) return structuredClone(entry.value) as T;
      throw Object.assign(new Error(entry.error.message), entry.error);
    }
    // Past the end of the record: the run goes on for real from here.
    this.#replayAt = undefined;
    const at = this.entries.length;
    this.entries.push(undefined as never);
    try {
      const value = await work();
      this.entries[at] = { step, ok: true, value: structuredClone(value) };
      return value;
    } catch (error) {
      const { name, message } = error as Error;
      this.entries[at] = {
        step,
        ok: false,
        error: { name, message, fatal: FatalToolError.isInstance(error) || undefined },
      };
      throw error;
    }
  }
}

function countingTool(calls: string[]): Tool {
  return defineTool({
    name: 'Touch',
    description: 'records that it ran',
    inputSchema: z.object({ id: z.string() }),
    isReadOnly: true,
    isConcurrencySafe: true,
    async call({ id }) {
      calls.push(id);
      return `touched ${id}`;
    },
  });
}

const SCRIPT: ScriptTurn[] = [
  {
    toolCalls: [
      { name: 'Touch', input: { id: 'a' } },
      { name: 'Touch', input: { id: 'b' } },
    ],
  },
  { toolCalls: [{ name: 'Touch', input: { id: 'c' } }] },
  { text: 'all touched' },
];

describe('the loop with a StepRunner', () => {
  it('hands every model call and every tool call to the runner, in order', async () => {
    const journal = new MemoryJournal();
    const calls: string[] = [];
    const { result } = await runToEnd(
      agentLoop({
        prompt: 'touch things',
        options: { model: scriptedModel(SCRIPT), tools: [countingTool(calls)], steps: journal },
      }),
    );
    expect(result.result).toBe('all touched');
    expect(journal.entries.map((entry) => entry.step.kind)).toEqual([
      'model',
      'tool',
      'tool',
      'model',
      'tool',
      'model',
    ]);
    expect(journal.entries[0]!.step.name).toBe('model#1');
    expect(journal.entries[1]!.step.name).toMatch(/^tool:Touch:/);
    expect(calls).toEqual(['a', 'b', 'c']);
  });

  it('replays a recorded run without calling the model or any tool again', async () => {
    const journal = new MemoryJournal();
    const calls: string[] = [];
    const tools = [countingTool(calls)];
    const first = await runToEnd(
      agentLoop({
        prompt: 'touch things',
        options: { model: scriptedModel(SCRIPT), tools, steps: journal },
      }),
    );
    const model = scriptedModel([]);
    const replayed = await runToEnd(
      agentLoop({ prompt: 'touch things', options: { model, tools, steps: journal.replay() } }),
    );
    expect(model.calls).toHaveLength(0);
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(replayed.result.result).toBe(first.result.result);
    expect(replayed.result.messages).toEqual(first.result.messages);
    expect(replayed.result.usage).toEqual(first.result.usage);
  });

  it('replays a recorded prefix, then goes on for real (a crash between steps)', async () => {
    const journal = new MemoryJournal();
    const calls: string[] = [];
    const tools = [countingTool(calls)];
    await runToEnd(
      agentLoop({
        prompt: 'touch things',
        options: { model: scriptedModel(SCRIPT), tools, steps: journal },
      }),
    );
    // The process died after the first tool batch: only the first three steps were journaled.
    journal.entries.splice(3);
    calls.length = 0;
    const model = scriptedModel(SCRIPT.slice(1));
    const { result } = await runToEnd(
      agentLoop({ prompt: 'touch things', options: { model, tools, steps: journal.replay() } }),
    );
    expect(result.error).toBeUndefined();
    expect(result.result).toBe('all touched');
    expect(model.calls).toHaveLength(2);
    expect(calls).toEqual(['c']);
  });

  it('replays a failed step as the same failure: a fatal tool error still ends the run', async () => {
    const journal = new MemoryJournal();
    const fatal = defineTool({
      name: 'Fatal',
      description: 'fails for good',
      inputSchema: z.object({}),
      isReadOnly: true,
      isConcurrencySafe: true,
      async call() {
        throw new FatalToolError('the disk is gone');
      },
    });
    const script: ScriptTurn[] = [{ toolCalls: [{ name: 'Fatal', input: {} }] }];
    const first = await runToEnd(
      agentLoop({
        prompt: 'go',
        options: { model: scriptedModel(script), tools: [fatal], steps: journal },
      }),
    );
    const replayed = await runToEnd(
      agentLoop({
        prompt: 'go',
        options: { model: scriptedModel([]), tools: [fatal], steps: journal.replay() },
      }),
    );
    expect(first.result.status).toBe('failed');
    expect(first.result.fatal).toBe(true);
    expect(replayed.result.status).toBe(first.result.status);
    expect(replayed.result.fatal).toBe(true);
    expect(replayed.result.error).toBe(first.result.error);
  });
});
