// A run's parts built once and complete: the sub-agent runtime holds its background side, its
// foreground children and the Workflow tool from its constructor on, and the main agent's tools
// are the caller's with Bash able to run in the background.
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../model/scripted-model.js';
import { TaskManager } from '../tasks/task-manager.js';
import { planRun } from './plan-run.js';
import { queryInput } from './run-defaults.js';
import { runQuery } from './start-run.js';

function plan(options: Partial<Parameters<typeof queryInput>[0]> = {}) {
  const tasks = new TaskManager();
  return planRun(
    queryInput({ model: scriptedModel([{ text: 'done' }]), agentId: 'main_t', tasks, ...options }),
  );
}

describe('planRun', () => {
  it('builds the runtime with the background side the run uses', () => {
    const { ports } = plan();
    expect(ports.runtime.background).toBe(ports.background);
    expect(ports.spawn.runtime).toBe(ports.runtime);
  });

  it('gives the main agent Bash that can run in the background', () => {
    const bash = plan().tools.find((tool) => tool.name === 'Bash');
    const accepted = bash?.inputSchema.safeParse({ command: 'sleep 1', run_in_background: true });
    expect(accepted?.data).toMatchObject({ run_in_background: true });
  });

  it('has the Workflow tool only when the run has workflows', () => {
    expect(plan().ports.runtime.workflowTool).toBeUndefined();
    expect(plan({ workflows: {} }).ports.runtime.workflowTool).toBeTypeOf('function');
  });

  it('places the main agent at the root of the tree', () => {
    expect(plan().ref).toEqual({ agentId: 'main_t', parentId: null, depth: 0 });
  });
});

describe('runQuery', () => {
  it('runs a planned input to its result, under the id the host minted', async () => {
    const tasks = new TaskManager();
    const run = runQuery(
      'hi',
      queryInput({ model: scriptedModel([{ text: 'done' }]), agentId: 'main_host', tasks }),
    );
    let step = await run.next();
    while (!step.done) step = await run.next();
    expect(step.value).toMatchObject({ agentId: 'main_host', result: 'done', isError: false });
  });
});
