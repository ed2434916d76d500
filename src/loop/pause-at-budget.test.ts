// A spent token or cost budget with pauseAtBudget: the agent stops before its next model request
// (no grace turn), its conversation as it stood, and a resume with a larger budget goes on.
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { NO_WAIT_RETRY } from '../testing/echo-run-options.js';
import { runToEnd } from '../testing/run-events.js';
import { echoTool } from '../testing/stub-tools.js';
import { type AgentLoopOptions, agentLoop } from './agent-loop.js';

const big = (text: string): ScriptTurn => ({
  toolCalls: [{ name: 'Echo', input: { text } }],
  usage: { input: 600, output: 100 },
});

async function run(turns: ScriptTurn[], options: Partial<AgentLoopOptions>, prompt = 'work') {
  const model = scriptedModel(turns);
  const { result } = await runToEnd(
    agentLoop({ prompt, options: { model, tools: [echoTool], retry: NO_WAIT_RETRY, ...options } }),
  );
  return { result, model };
}

describe('pauseAtBudget', () => {
  it('pauses at a spent token budget: no grace turn, no request after it, the conversation intact', async () => {
    const { result, model } = await run([big('one'), big('two'), { text: 'never asked' }], {
      tokenBudget: 1000,
      pauseAtBudget: true,
    });
    expect(result).toMatchObject({
      status: 'budget',
      subtype: 'error_budget',
      paused: true,
      numTurns: 2,
    });
    expect(result.error).toMatch(/^Paused: the token budget is used up/);
    expect(model.calls).toHaveLength(2);
    // The last thing in the conversation is the second batch's results, ready to go on from.
    expect(result.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ output: 'echo: two' }],
    });
  });

  it('pauses at a spent cost budget too', async () => {
    const model = scriptedModel([big('one'), { text: 'never asked' }]);
    const prices = {
      source: 'test',
      date: '2026-11-27',
      models: {
        [`scripted:${model.modelId}`]: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      },
    };
    const { result } = await runToEnd(
      agentLoop({
        prompt: 'work',
        options: { model, tools: [echoTool], prices, costBudgetUsd: 0.0001, pauseAtBudget: true },
      }),
    );
    expect(result).toMatchObject({ status: 'budget', paused: true });
    expect(result.error).toMatch(/^Paused: the cost budget is used up/);
  });

  it('goes on from where it paused when resumed with a larger budget', async () => {
    const first = await run([big('one'), big('two')], { tokenBudget: 1000, pauseAtBudget: true });
    const { result, model } = await run(
      [{ text: 'finished after the pause' }],
      { messages: first.result.messages, tokenBudget: 10_000, pauseAtBudget: true },
      'Go on.',
    );
    expect(result).toMatchObject({ status: 'completed', result: 'finished after the pause' });
    expect(result.paused).toBeUndefined();
    // The resumed request carries the whole conversation: both batches and their results.
    const prompt = JSON.stringify(model.calls[0]!.prompt);
    expect(prompt).toContain('echo: one');
    expect(prompt).toContain('echo: two');
  });

  it('still ends with a report at the time budget', async () => {
    const { result } = await run([{ delayMs: 60_000, text: 'slow' }, { text: 'the report' }], {
      timeBudgetMs: 50,
      windDownMs: 5_000,
      pauseAtBudget: true,
    });
    expect(result).toMatchObject({ status: 'budget', result: 'the report' });
    expect(result.paused).toBeUndefined();
  });
});
