import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { DecisionStore } from './decision-store.js';

const cwd = '/work/project';

describe('DecisionStore', () => {
  it('allows nothing until a decision is remembered', () => {
    const store = new DecisionStore();
    expect(store.allows({ toolName: 'Bash', subject: 'npm test', cwd })).toBe(false);
    expect(store.list()).toEqual([]);
  });

  it('allows every call a remembered rule matches, with the same matching as allow rules', () => {
    const store = new DecisionStore();
    store.remember('Bash(npm test:*)');
    store.remember('Edit(src/**)');
    expect(store.allows({ toolName: 'Bash', subject: 'npm test -- --watch', cwd })).toBe(true);
    expect(store.allows({ toolName: 'Bash', subject: 'npm test && rm -rf /', cwd })).toBe(false);
    expect(store.allows({ toolName: 'Edit', subject: 'src/a.ts', cwd })).toBe(true);
    expect(store.allows({ toolName: 'Edit', subject: 'package.json', cwd })).toBe(false);
  });

  it('lists remembered rules once each, oldest first', () => {
    const store = new DecisionStore();
    store.remember('Bash(npm test:*)');
    store.remember('Read');
    store.remember(' Bash(npm test:*) ');
    expect(store.list()).toEqual(['Bash(npm test:*)', 'Read']);
  });

  it('refuses a rule that does not parse', () => {
    const store = new DecisionStore();
    expect(() => store.remember('Bash(npm test')).toThrow(ConfigError);
    expect(store.list()).toEqual([]);
  });
});
