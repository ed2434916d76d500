import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { defineAgent } from './define-agent.js';

describe('defineAgent', () => {
  it('returns a valid definition unchanged', () => {
    const input = {
      description: 'Reviews diffs.',
      prompt: 'You review.',
      tools: 'Read, Grep',
      maxTurns: 5,
    };
    expect(defineAgent(input)).toBe(input);
  });

  it('throws a ConfigError that names the agent, the field and what it must be', () => {
    const define = () =>
      defineAgent({ name: 'reviewer', description: 'd', prompt: 'p', maxTurns: 0 });
    expect(define).toThrow(ConfigError);
    expect(define).toThrow(
      'agent definition "reviewer": `maxTurns` must be a whole number above 0 (got 0)',
    );
  });

  it('names every bad field at once', () => {
    const define = () =>
      defineAgent({
        description: 'd',
        prompt: 'p',
        isolation: 'container' as 'worktree',
        permissionMode: 'yolo' as 'plan',
      });
    expect(define).toThrow(
      /`isolation` must be `worktree` or `remote` \(got "container"\); `permissionMode` must be one of/,
    );
  });

  it('requires description and prompt', () => {
    expect(() => defineAgent({ prompt: 'p' } as { description: string; prompt: string })).toThrow(
      /`description` is missing/,
    );
    expect(() =>
      defineAgent({ description: 'd' } as { description: string; prompt: string }),
    ).toThrow(/`prompt` is missing/);
  });
});
