// A library caller's options as a run's input: every default applied once, the `agent` found
// once, the budget and the remote port settled before anything starts.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import type { RemoteExecutor } from '../core/remote-executor.js';
import { RUN_KNOBS } from '../core/run-knobs.js';
import { scriptedModel } from '../model/scripted-model.js';
import { TaskManager } from '../tasks/task-manager.js';
import { newMainId } from './main-id.js';
import { queryInput } from './run-defaults.js';

const model = scriptedModel([{ text: 'done' }]);

function input(options: Partial<Parameters<typeof queryInput>[0]> = {}) {
  return queryInput({ model, agentId: 'main_test', tasks: new TaskManager(), ...options });
}

describe('queryInput', () => {
  it('runs in the process folder, reaching only it, as the main agent of type main', () => {
    const resolved = input();
    expect(resolved).toMatchObject({
      cwd: process.cwd(),
      allowedDirs: [process.cwd()],
      agentType: 'main',
      agentPath: 'main',
      mainDefinition: undefined,
    });
    expect(resolved.tools.map((tool) => tool.name)).toContain('Bash');
    expect(resolved.projectContext).toBeDefined();
  });

  it('finds the main definition once, whatever the case of its name', () => {
    const resolved = input({
      agent: 'Reviewer',
      agents: { reviewer: { description: 'Reviews.', prompt: 'Review.', timeBudgetMs: 9000 } },
    });
    expect(resolved.mainDefinition?.name).toBe('reviewer');
    expect(resolved.agentType).toBe('reviewer');
    expect(resolved.budget.limits.timeMs).toBe(9000);
  });

  it('keeps the caller’s limits over the definition’s', () => {
    const resolved = input({
      agent: 'reviewer',
      agents: { reviewer: { description: 'Reviews.', prompt: 'Review.', timeBudgetMs: 9000 } },
      timeBudgetMs: 1000,
      costBudgetUsd: 2,
    });
    expect(resolved.budget.limits).toMatchObject({ timeMs: 1000, costUsd: 2 });
  });

  it('refuses an agent no definition has, naming the ones there are', () => {
    const refused = (() => {
      try {
        input({ agent: 'nobody' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    expect(String(refused)).toMatch(/--agent nobody.*no such agent.*general-purpose/s);
  });

  it('gives a remote port the main model’s spec for children that inherit it', () => {
    const unused = () => Promise.reject(new Error('not called by this test'));
    const executor: RemoteExecutor = {
      name: 'unused',
      submit: unused,
      result: unused,
      progress: unused,
      cancel: unused,
      send: unused,
      inbox: unused,
      acknowledge: unused,
    };
    const resolved = queryInput({
      model: 'scripted:never-read.json',
      agentId: 'main_test',
      tasks: new TaskManager(),
      remote: { executor, inboxKey: 'session' },
    });
    expect(resolved.remote?.modelSpec).toBe('scripted:never-read.json');
    // The unread script's rejection is the model's, not this test's.
    Promise.resolve(resolved.model).catch(() => {});
  });

  it('has no sandbox when the caller turns it off', () => {
    expect(input({ sandbox: false }).commandSandbox).toBeUndefined();
  });

  it('sets every knob the caller leaves out to the one table of defaults, and keeps those given', () => {
    expect(input()).toMatchObject(RUN_KNOBS);
    const given = input({ maxDepth: 0, resultMaxChars: 80, requestTimeoutMs: 5000, stream: false });
    expect(given).toMatchObject({
      ...RUN_KNOBS,
      maxDepth: 0,
      resultMaxChars: 80,
      requestTimeoutMs: 5000,
      stream: false,
    });
  });

  it('names a run without a session of its own once, and keeps a host’s session id', () => {
    const first = input().sessionId;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(input().sessionId).not.toBe(first);
    expect(input({ sessionId: 'session-1' }).sessionId).toBe('session-1');
  });
});

describe('newMainId', () => {
  it('mints a main_ id, or takes the recorded one in a replay', () => {
    expect(newMainId()).toMatch(/^main_[0-9a-f]{8}$/);
    const replay = { agentId: () => 'main_recorded', taskId: () => 'task' };
    expect(newMainId(replay)).toBe('main_recorded');
  });
});
