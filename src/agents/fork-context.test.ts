import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, ToolCallPart } from '../core/messages.js';
import { builtinAgents } from '../definitions/builtin-agents.js';
import { forkDirective, forkedTurns, forkMessages } from './fork-context.js';

const call = (id: string): ToolCallPart => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: 'Read',
  input: {},
});
const result = (id: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'Read', output: 'x', isError: false }],
});

/** System prompt, then turns; the last turn's assistant message holds calls without results. */
const conversation: Message[] = [
  { role: 'system', content: 'SYSTEM' },
  { role: 'user', content: 'turn 1' },
  { role: 'assistant', content: [{ type: 'text', text: 'reading' }, call('a')] },
  result('a'),
  { role: 'assistant', content: [{ type: 'text', text: 'done 1' }] },
  { role: 'user', content: 'turn 2' },
  { role: 'assistant', content: [{ type: 'text', text: 'ok 2' }] },
  { role: 'user', content: 'turn 3' },
  { role: 'assistant', content: [call('b')] },
  result('b'),
  { role: 'assistant', content: [{ type: 'text', text: 'starting agents' }, call('c'), call('d')] },
];

const users = (messages: readonly Message[]) =>
  messages.filter((message) => message.role === 'user').map((message) => message.content);

describe('forkContext', () => {
  it('reads true as the whole conversation, N as N turns, and false or nothing as none', () => {
    expect(forkedTurns(true)).toBe('all');
    expect(forkedTurns(2)).toBe(2);
    expect(forkedTurns(false)).toBeUndefined();
    expect(forkedTurns(undefined)).toBeUndefined();
    expect(forkedTurns(0)).toBeUndefined();
  });
});

describe('forkMessages', () => {
  it('keeps the system prompt and the whole conversation, minus the calls still running', () => {
    const forked = forkMessages(conversation, 'all');
    expect(forked.slice(0, -1)).toEqual(conversation.slice(0, -1));
    expect(forked.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'starting agents' }],
    });
  });

  it('keeps the very message objects it does not change, so they convert once', () => {
    const forked = forkMessages(conversation, 'all');
    for (const [i, message] of forked.slice(0, -1).entries()) {
      expect(message).toBe(conversation[i]);
    }
  });

  it('with N, carries exactly the last N turns: from the Nth user message from the end', () => {
    expect(users(forkMessages(conversation, 1))).toEqual(['turn 3']);
    expect(users(forkMessages(conversation, 2))).toEqual(['turn 2', 'turn 3']);
    expect(forkMessages(conversation, 2).slice(0, 3)).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'turn 2' },
      { role: 'assistant', content: [{ type: 'text', text: 'ok 2' }] },
    ]);
    expect(users(forkMessages(conversation, 9))).toEqual(['turn 1', 'turn 2', 'turn 3']);
  });

  it('drops an assistant message whose only content was calls still running', () => {
    const running: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('x')] },
    ];
    expect(forkMessages(running, 'all')).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('holds for any conversation: N turns exactly, every call with its result, a suffix of the parent', () => {
    const turn = fc.record({
      prompt: fc.string({ minLength: 1, maxLength: 5 }),
      steps: fc.array(fc.record({ calls: fc.nat(3), text: fc.boolean() }), { maxLength: 3 }),
      runningCalls: fc.nat(3),
    });
    fc.assert(
      fc.property(
        fc.array(turn, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 8 }),
        (turns, n) => {
          let id = 0;
          const messages: Message[] = [{ role: 'system', content: 'S' }];
          turns.forEach((t, index) => {
            messages.push({ role: 'user', content: t.prompt });
            for (const step of t.steps) {
              const calls = Array.from({ length: step.calls }, () => call(`c${id++}`));
              const text =
                step.text || calls.length === 0
                  ? [{ type: 'text' as const, text: 'thinking' }]
                  : [];
              messages.push({ role: 'assistant', content: [...text, ...calls] });
              if (calls.length > 0) {
                messages.push({
                  role: 'tool',
                  content: calls.map((c) => ({
                    type: 'tool-result' as const,
                    toolCallId: c.toolCallId,
                    toolName: 'Read',
                    output: 'r',
                    isError: false,
                  })),
                });
              }
            }
            // The turn the parent is in now ends with calls still waiting for their results.
            if (index === turns.length - 1 && t.runningCalls > 0) {
              const running = Array.from({ length: t.runningCalls }, () => call(`c${id++}`));
              messages.push({ role: 'assistant', content: running });
            }
          });
          const forked = forkMessages(messages, n);
          expect(forked[0]).toEqual({ role: 'system', content: 'S' });
          expect(users(forked)).toHaveLength(Math.min(n, turns.length));
          const calls = forked.flatMap((m) =>
            m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call') : [],
          );
          const results = new Set(
            forked.flatMap((m) => (m.role === 'tool' ? m.content.map((p) => p.toolCallId) : [])),
          );
          expect(calls.every((c) => results.has(c.toolCallId))).toBe(true);
          expect(forked.every((m) => m.role !== 'assistant' || m.content.length > 0)).toBe(true);
          const whole = forkMessages(messages, 'all');
          expect(whole.slice(-(forked.length - 1))).toEqual(forked.slice(1));
        },
      ),
    );
  });
});

describe('forkDirective', () => {
  it("hands the conversation over: the child's type and instructions, then its task", () => {
    const explore = builtinAgents().find((definition) => definition.name === 'explore')!;
    const text = forkDirective({ definition: explore, task: '  Find the cache code.  ' });
    expect(text).toMatch(
      /^\[You are now a sub-agent of type "explore", forked from the conversation above: it is context, not your task\./,
    );
    expect(text).toContain(`Your instructions:\n${explore.prompt.trim()}`);
    expect(text.endsWith('Your task:\nFind the cache code.')).toBe(true);
  });

  it("adds the child's sections its parent's system prompt lacks, and its worktree", () => {
    const explore = builtinAgents().find((definition) => definition.name === 'explore')!;
    const text = forkDirective({
      definition: explore,
      task: 'Look.',
      sections: ['# Project instructions\n\nShared.', '# Agent memory\n\nMine.'],
      systemPrompt: 'Parent prompt.\n\n# Project instructions\n\nShared.\n\nEnvironment: …',
      workspace: { cwd: '/repo/.warren/worktrees/agent_1', promptNote: 'Your git worktree:\n- …' },
    });
    expect(text).not.toContain('# Project instructions');
    expect(text).toContain(
      `Your instructions:\n${explore.prompt.trim()}\n\n# Agent memory\n\nMine.\n\nYour working directory is /repo/.warren/worktrees/agent_1, not the one the system prompt names.\n\nYour git worktree:\n- …\n\nYour task:\nLook.`,
    );
  });
});
