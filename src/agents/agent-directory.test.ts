// Who is who in a run, and who may address whom: paths in the tree, names unique among live
// agents, descendants and siblings only.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../core/events.js';
import { finishedRun } from '../testing/run-results.js';
import { AgentDirectory } from './agent-directory.js';
import type { SubagentOptions } from './subagent-context.js';

const agent = (agentId: string, parentId: string, agentType = 'explore'): SubagentOptions =>
  ({ agentId, parentId, depth: parentId === 'main' ? 1 : 2, agentType, model: {} }) as never;
const at = (options: SubagentOptions, agentPath: string) => ({ ...options, agentPath });

const ended = (agentId: string): RunResult =>
  finishedRun(
    { agentId, parentId: null, depth: 1 },
    { result: 'ok', messages: [{ role: 'user', content: 'history' }] },
  );

function tree(): AgentDirectory {
  const directory = new AgentDirectory();
  directory.addRoot({
    agentId: 'main',
    parentId: null,
    depth: 0,
    agentType: 'main',
    description: '',
    path: 'main',
  });
  directory.started(at(agent('a', 'main'), 'main/Agent#1/explore'), {
    name: 'alpha',
    background: false,
  });
  directory.started(agent('b', 'main'), { name: 'beta', background: true, taskId: 'task_b' });
  directory.started(agent('c', 'main', 'plan'), { background: false });
  directory.started(agent('a1', 'a'), { name: 'alpha-child', background: false });
  return directory;
}

describe('AgentDirectory', () => {
  it('keeps the path the loop reports, or makes one below the parent', () => {
    const directory = tree();
    expect(['a', 'b', 'c', 'a1'].map((id) => directory.get(id)?.path)).toEqual([
      'main/Agent#1/explore',
      'main/explore',
      'main/plan',
      'main/Agent#1/explore/explore',
    ]);
  });

  it('lets an agent address its descendants and siblings, never a sibling’s children', () => {
    const directory = tree();
    const ids = (caller: string) => directory.addressableFrom(caller).map((entry) => entry.agentId);
    expect(ids('main')).toEqual(['a', 'a1', 'b', 'c']);
    expect(ids('b')).toEqual(['a', 'c']);
    expect(ids('a')).toEqual(['b', 'c', 'a1']);
    expect(ids('a1')).toEqual([]);
    expect(directory.resolve('b', 'alpha-child')).toBeUndefined();
    expect(directory.resolve('b', 'alpha')?.agentId).toBe('a');
    expect(directory.resolve('main', 'a1')?.name).toBe('alpha-child');
  });

  it('keeps names unique among live agents only, and the conversation of an ended one', async () => {
    const directory = tree();
    expect(directory.liveByName('alpha')?.agentId).toBe('a');
    const waiting = directory.whenEnded('a');
    directory.ended(ended('a'));
    await waiting;
    expect(directory.liveByName('alpha')).toBeUndefined();
    expect(directory.get('a')).toMatchObject({
      status: 'completed',
      messages: [{ content: 'history' }],
    });
  });

  it("keeps what continuing an ended agent takes, not its run's stop signal and inbox", () => {
    const directory = new AgentDirectory();
    const signal = new AbortController().signal;
    const inbox = { close: () => {} } as never;
    directory.started(
      { ...agent('a', 'main'), signal, inbox, cwd: '/work' },
      { background: false },
    );
    directory.ended(ended('a'));
    const kept = directory.get('a')?.options;
    expect(kept).toMatchObject({ agentId: 'a', cwd: '/work' });
    expect(kept?.signal).toBeUndefined();
    expect(kept?.inbox).toBeUndefined();
  });
});
