// Questions from every agent, one at a time: foreground first, background waiting; "always"
// settles every waiting question it covers; a stopped run takes its question back.
import { describe, expect, it } from 'vitest';
import type { PermissionPrompt } from '../../permissions/create-permission-policy.js';
import { DecisionStore } from '../../permissions/decision-store.js';
import { bashTool } from '../../tools/bash.js';
import { PermissionQueue } from './permission-queue.js';

function promptFor(
  command: string,
  agentId: string,
  signal = new AbortController().signal,
): PermissionPrompt {
  return {
    tool: bashTool,
    input: { command },
    cwd: '/p',
    allowedDirs: ['/p'],
    agent: { agentId, parentId: null, depth: agentId === 'main' ? 0 : 1, agentType: 'explore' },
    signal,
    subject: command,
    call: `Bash(${command})`,
    suggestions: { exact: `Bash(${command})` },
  };
}

describe('the permission queue', () => {
  it('shows questions from the foreground before those from the background', async () => {
    const queue = new PermissionQueue({
      store: new DecisionStore(),
      describe: (agentId) => ({ description: `job of ${agentId}`, background: agentId === 'bg' }),
    });
    const background = queue.ask(promptFor('ls -la', 'bg'));
    const foreground = queue.ask(promptFor('npm test', 'fg'));
    expect(queue.current()?.agent).toMatchObject({ agentId: 'fg', description: 'job of fg' });
    queue.allowOnce(queue.current()!.id);
    expect(await foreground).toEqual({ behavior: 'allow' });
    expect(queue.current()?.agent.agentId).toBe('bg');
    queue.deny(queue.current()!.id, 'not now');
    expect(await background).toEqual({
      behavior: 'deny',
      message: 'The user did not allow Bash(ls -la). They said: not now',
    });
    expect(queue.pending()).toEqual([]);
  });

  it('remembers "always" in the shared store and settles the questions it covers', async () => {
    const store = new DecisionStore();
    const queue = new PermissionQueue({ store });
    const first = queue.ask(promptFor('npm test', 'a'));
    const same = queue.ask(promptFor('npm test', 'b'));
    const other = queue.ask(promptFor('npm publish', 'c'));
    queue.allowAlways(queue.current()!.id, 'Bash(npm test)');
    expect(await first).toEqual({ behavior: 'allow', remember: 'Bash(npm test)' });
    expect(await same).toEqual({ behavior: 'allow' });
    expect(queue.pending().map((waiting) => waiting.prompt.subject)).toEqual(['npm publish']);
    expect(store.list()).toEqual(['Bash(npm test)']);
    queue.denyAll();
    expect(await other).toMatchObject({ behavior: 'deny' });
  });

  it('takes a question back when its run stops', async () => {
    const controller = new AbortController();
    const queue = new PermissionQueue({ store: new DecisionStore() });
    const answer = queue.ask(promptFor('sleep 9', 'a', controller.signal));
    expect(queue.pending()).toHaveLength(1);
    controller.abort();
    expect(await answer).toMatchObject({ behavior: 'deny' });
    expect(queue.pending()).toEqual([]);
  });
});
