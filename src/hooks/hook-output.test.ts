// What a hook's answer means for its event: exit codes, Claude Code's JSON fields, and hostile
// output (nonsense, wrong fields, too much text) as warnings that decide nothing.
import { describe, expect, it } from 'vitest';
import { MAX_HOOK_TEXT, outcomeOfCommand, outcomeOfJson } from './hook-output.js';

const reply = (exitCode: number, stdout = '', stderr = '') => ({ exitCode, stdout, stderr });

describe('a command hook answer', () => {
  it('exit 2 denies a PreToolUse call and blocks the events that can be blocked, stderr the reason', () => {
    expect(outcomeOfCommand('PreToolUse', reply(2, '', 'no rm\n'), 'h')).toEqual({
      permission: { decision: 'deny', reason: 'no rm' },
      warnings: [],
    });
    for (const event of ['PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop'] as const) {
      expect(outcomeOfCommand(event, reply(2, '', 'why'), 'h')).toEqual({
        block: 'why',
        warnings: [],
      });
    }
  });

  it('exit 2 where nothing can be blocked is a warning', () => {
    expect(outcomeOfCommand('SessionStart', reply(2, '', 'nope'), 'h').warnings).toEqual([
      'hook h exited with 2, which cannot block SessionStart: nope',
    ]);
  });

  it('any other failing exit code is a warning, never a block', () => {
    expect(outcomeOfCommand('PreToolUse', reply(1, '', 'boom\nstack'), 'h')).toEqual({
      warnings: ['hook h failed with exit code 1: boom'],
    });
  });

  it('exit 0 with plain text is context for UserPromptSubmit and SessionStart only', () => {
    expect(outcomeOfCommand('SessionStart', reply(0, 'branch main\n'), 'h')).toEqual({
      context: 'branch main',
      warnings: [],
    });
    expect(outcomeOfCommand('PreToolUse', reply(0, 'chatter'), 'h')).toEqual({ warnings: [] });
  });

  it('exit 0 with broken JSON is a warning', () => {
    expect(
      outcomeOfCommand('PreToolUse', reply(0, '{"hookSpecificOutput":'), 'h').warnings[0],
    ).toMatch(/not valid JSON/);
  });
});

describe('a JSON answer', () => {
  it('carries a PreToolUse decision with its reason and a new input', () => {
    expect(
      outcomeOfJson(
        'PreToolUse',
        {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'ask',
            permissionDecisionReason: 'prod',
            updatedInput: { command: 'ls' },
          },
        },
        'h',
      ),
    ).toEqual({
      permission: { decision: 'ask', reason: 'prod' },
      updatedInput: { command: 'ls' },
      warnings: [],
    });
  });

  it("reads Claude Code's older approve and block on PreToolUse", () => {
    expect(outcomeOfJson('PreToolUse', { decision: 'block', reason: 'r' }, 'h').permission).toEqual(
      {
        decision: 'deny',
        reason: 'r',
      },
    );
    expect(outcomeOfJson('PreToolUse', { decision: 'approve' }, 'h').permission?.decision).toBe(
      'allow',
    );
  });

  it('carries the handoff verdict and a fatal failure of a SubagentStop hook', () => {
    expect(
      outcomeOfJson(
        'SubagentStop',
        {
          hookSpecificOutput: {
            handoffDecision: 'flag',
            handoffDecisionReason: 'a URL',
            onFailure: 'fatal',
          },
        },
        'h',
      ),
    ).toEqual({ handoff: { decision: 'flag', reason: 'a URL' }, fatal: 'hook h', warnings: [] });
  });

  it('reports fields that do not apply or are malformed, and uses none of them', () => {
    const outcome = outcomeOfJson(
      'PostToolUse',
      {
        continue: false,
        decision: 'maybe',
        hookSpecificOutput: { permissionDecision: 'allow', handoffDecision: 'block' },
      },
      'h',
    );
    expect(outcome.permission).toBeUndefined();
    expect(outcome.handoff).toBeUndefined();
    expect(outcome.block).toBeUndefined();
    expect(outcome.warnings).toHaveLength(4);
  });

  it('for another event is ignored', () => {
    expect(
      outcomeOfJson(
        'PreToolUse',
        { hookSpecificOutput: { hookEventName: 'Stop', permissionDecision: 'deny' } },
        'h',
      ),
    ).toEqual({
      warnings: ['hook h: `hookSpecificOutput` is for Stop, not PreToolUse; it was ignored'],
    });
  });

  it('that is not an object, or says nothing, decides nothing', () => {
    expect(outcomeOfJson('Stop', [1, 2], 'h').warnings).toHaveLength(1);
    expect(outcomeOfJson('Stop', undefined, 'h')).toEqual({ warnings: [] });
  });

  it('hands a person the systemMessage and the model no more than the cap of context', () => {
    const outcome = outcomeOfJson(
      'UserPromptSubmit',
      {
        systemMessage: 'heads up',
        hookSpecificOutput: { additionalContext: 'x'.repeat(MAX_HOOK_TEXT + 5) },
      },
      'h',
    );
    expect(outcome.warnings).toEqual(['hook h says: heads up']);
    expect(outcome.context).toMatch(/^x{10000}… \[5 more characters cut\]$/);
  });
});
