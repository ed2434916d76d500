// The loop's side of the one hook interface: which events it fires, in what order, with what,
// and what it does with the answers. Any HookRunner will do; here, one written by hand.
import { describe, expect, it } from 'vitest';
import type { HookEvent, HookOutcome, HookRunner } from '../core/hook-runner.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { echoTool } from '../testing/stub-tools.js';
import { type AgentLoopOptions, agentLoop } from './agent-loop.js';

/** Answers each event from `answers` by name and remembers every event it was asked about. */
function handRunner(answers: Partial<Record<HookEvent['name'], Omit<HookOutcome, 'warnings'>>>) {
  const events: HookEvent[] = [];
  const runner: HookRunner = {
    async run(event) {
      events.push(event);
      return { warnings: [`saw ${event.name}`], ...answers[event.name] };
    },
  };
  return { runner, events };
}

async function run(
  turns: ScriptTurn[],
  hooks: HookRunner,
  options: Partial<AgentLoopOptions> = {},
) {
  return runToEnd(
    agentLoop({
      prompt: 'do it',
      options: { model: scriptedModel(turns), tools: [echoTool], hooks, cwd: '/work', ...options },
    }),
  );
}

const echo = { toolCalls: [{ name: 'Echo', input: { text: 'hi' } }] };

describe('the loop with a hook runner', () => {
  it('fires the prompt, tool and stop events in order, each with the agent, and reports warnings', async () => {
    const { runner, events } = handRunner({});
    const { events: stream } = await run([echo, { text: 'done' }], runner, { agentId: 'a1' });
    expect(events.map((event) => event.name)).toEqual([
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'Stop',
    ]);
    expect(events[1]).toMatchObject({
      agent: { agentId: 'a1', parentId: null, depth: 0, agentType: 'main' },
      cwd: '/work',
      toolName: 'Echo',
      toolInput: { text: 'hi' },
    });
    expect(events[3]).toMatchObject({ lastAssistantMessage: 'done', status: 'completed' });
    expect(ofType(stream, 'warning').map((event) => event.message)).toEqual([
      'saw UserPromptSubmit',
      'saw PreToolUse',
      'saw PostToolUse',
      'saw Stop',
    ]);
  });

  it('names the events of an agent with a parent as a sub-agent', async () => {
    const { runner, events } = handRunner({});
    await run([{ text: 'done' }], runner, { parentId: 'p', depth: 1, agentType: 'explore' });
    expect(events.map((event) => event.name)).toEqual(['SubagentStart', 'SubagentStop']);
  });

  it('without a permission policy, refuses a call a hook denies or wants a person to confirm', async () => {
    for (const decision of ['deny', 'ask'] as const) {
      const { runner } = handRunner({
        PreToolUse: { permission: { decision, reason: 'REASON-X' } },
      });
      const { result } = await run([echo, { text: 'done' }], runner);
      const [toolResult] = result.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
      expect(toolResult).toMatchObject({
        isError: true,
        output: expect.stringContaining('REASON-X'),
      });
    }
  });

  it('adds a PostToolUse block and context to the result the model reads', async () => {
    const { runner } = handRunner({ PostToolUse: { block: 'too loud', context: 'whisper' } });
    const { result } = await run([echo, { text: 'done' }], runner);
    const [toolResult] = result.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(toolResult).toMatchObject({
      isError: true,
      output:
        'echo: hi\n\n[PostToolUse hook: too loud]\n\n<system-reminder>\nPostToolUse hook context:\nwhisper\n</system-reminder>',
    });
  });

  it("carries a stop hook's handoff verdict into the result, and makes a failure fatal", async () => {
    const { runner } = handRunner({
      SubagentStop: { handoff: { decision: 'flag', reason: 'odd' }, fatal: 'policy' },
    });
    const { result } = await run([{ error: { status: 400, message: 'bad request' } }], runner, {
      parentId: 'p',
      depth: 1,
      retry: { maxRetries: 0 },
    });
    expect(result).toMatchObject({
      status: 'failed',
      fatal: true,
      handoff: { decision: 'flag', reason: 'odd' },
      error: expect.stringMatching(/bad request.* \(made fatal by a SubagentStop hook: policy\)$/),
    });
  });
});
