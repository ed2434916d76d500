// Sub-agents in git worktrees, end to end through query(), the scripted model, the real tools
// and real git: the child is bound to its worktree (cwd, files, shell, permissions), its
// children inherit it or get their own, and when it ends, however it ends, its worktree is
// removed or kept and the parent is told which.
import { existsSync, readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf, RunResult } from '../core/events.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { type QueryOptions, query } from '../query.js';
import { unframed } from '../testing/framed-output.js';
import {
  commitAll,
  gitIn,
  makeGitRepo,
  worktreeLeftovers,
  writeFiles,
} from '../testing/git-repo.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { useTempDir } from '../testing/temp-dir.js';
import { builtinTools } from '../tools/builtin-tools.js';

const repo = useTempDir('warren-isolated-');

const agentCall = (prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 20), prompt, isolation: 'worktree', ...extra },
});
const call = (name: string, input: Record<string, unknown>) => ({ toolCalls: [{ name, input }] });

interface Run {
  result: RunResult;
  events: AgentEvent[];
  /** Every tool result, by the agent depth that got it. */
  outputs: (depth: number) => AgentEventOf<'tool_end'>[];
  worktreeEvents: AgentEventOf<'worktree'>[];
}

async function run(turns: ScriptTurn[], options: Partial<QueryOptions> = {}): Promise<Run> {
  const { events, result } = await runToEnd(
    query({
      prompt: 'MAIN task',
      options: {
        model: scriptedModel(turns),
        tools: builtinTools(),
        cwd: repo(),
        permissions: createPermissionPolicy({ mode: 'bypassPermissions' }),
        ...options,
      },
    }),
  );
  return {
    result,
    events,
    outputs: (depth) => ofType(events, 'tool_end').filter((event) => event.depth === depth),
    worktreeEvents: ofType(events, 'worktree'),
  };
}

const worktreeOf = (events: AgentEvent[], depth = 1) =>
  ofType(events, 'run_start').find((event) => event.depth === depth)!;

describe('a sub-agent with isolation: "worktree"', () => {
  it("works in its own worktree: its writes land there, the parent's checkout is untouched, and the changes are kept and reported", async () => {
    makeGitRepo(repo(), { 'app.txt': 'v1\n' });
    const { result, events, outputs, worktreeEvents } = await run([
      call('Agent', agentCall('CHILD change the app').input),
      { match: { prompt: 'CHILD' }, ...call('Read', { file_path: 'app.txt' }) },
      {
        match: { prompt: 'CHILD', lastToolResult: 'v1' },
        ...call('Write', { file_path: 'app.txt', content: 'v2\n' }),
      },
      { match: { prompt: 'CHILD', lastToolResult: 'Updated' }, text: 'changed it' },
      { match: { lastToolResult: 'changed it' }, text: 'done' },
    ]);
    const child = worktreeOf(events);
    const worktree = path.join(repo(), '.warren', 'worktrees', child.agentId);
    expect(child.cwd).toBe(worktree);
    expect(readFileSync(path.join(repo(), 'app.txt'), 'utf8')).toBe('v1\n');
    expect(gitIn(repo(), 'status', '--porcelain')).toBe('');
    expect(gitIn(repo(), 'show', `warren/${child.agentId}:app.txt`)).toBe('v2');

    const [agentResult] = outputs(0);
    expect(unframed(agentResult!.output)).toMatch(
      new RegExp(
        `^changed it\\n\\n\\[Worktree kept: the agent's changes are on branch warren/${child.agentId}, in ${worktree} \\(what it left uncommitted was committed as [0-9a-f]{12}\\)\\.\\n app\\.txt \\| 2 \\+-\\n 1 file changed, 1 insertion\\(\\+\\), 1 deletion\\(-\\)\\n`,
      ),
    );
    expect(agentResult?.output).toContain(`warren worktrees merge ${child.agentId}`);
    expect(worktreeEvents.map((event) => [event.agentId, event.action, event.changed])).toEqual([
      [child.agentId, 'created', false],
      [child.agentId, 'kept', true],
    ]);
    expect(result.result).toBe('done');
  });

  it('that changes nothing: its worktree and branch are removed, and the parent is told so', async () => {
    makeGitRepo(repo());
    const { events, outputs, worktreeEvents } = await run([
      call('Agent', agentCall('LOOKER just look').input),
      { match: { prompt: 'LOOKER' }, ...call('Glob', { pattern: '*' }) },
      { match: { prompt: 'LOOKER', lastToolResult: 'README' }, text: 'looked' },
      { text: 'done' },
    ]);
    const child = worktreeOf(events);
    expect(unframed(outputs(0)[0]!.output)).toBe(
      `looked\n\n[Worktree removed: the agent changed nothing in ${path.join(repo(), '.warren', 'worktrees', child.agentId)}.]`,
    );
    expect(worktreeEvents.map((event) => event.action)).toEqual(['created', 'removed']);
    expect(worktreeLeftovers(repo())).toEqual({ worktrees: 0, branches: [] });
  });

  it('in the background: its worktree is made at the call and finished when its task ends, and the note ends its notification', async () => {
    makeGitRepo(repo(), { 'app.txt': 'v1\n' });
    const { result, events, outputs, worktreeEvents } = await run([
      call('Agent', agentCall('BG change the app', { run_in_background: true }).input),
      { match: { prompt: 'BG' }, ...call('Read', { file_path: 'app.txt' }) },
      {
        match: { prompt: 'BG', lastToolResult: 'v1' },
        ...call('Write', { file_path: 'app.txt', content: 'v2\n' }),
      },
      { match: { prompt: 'BG', lastToolResult: 'Updated' }, text: 'changed it' },
      { match: { lastToolResult: '"task_id"' }, text: 'waiting' },
      { match: { prompt: '<task-notification>' }, text: 'done' },
    ]);
    const child = worktreeOf(events);
    const worktree = path.join(repo(), '.warren', 'worktrees', child.agentId);
    expect(child.cwd).toBe(worktree);
    expect(readFileSync(path.join(repo(), 'app.txt'), 'utf8')).toBe('v1\n');
    expect(gitIn(repo(), 'show', `warren/${child.agentId}:app.txt`)).toBe('v2');
    expect(outputs(0)[0]?.output).toMatch(/^\{"task_id":/);
    const notification = ofType(events, 'task_notification')[0];
    expect(notification?.result).toMatch(
      new RegExp(
        `^changed it\\n\\n\\[Worktree kept: the agent's changes are on branch warren/${child.agentId}`,
      ),
    );
    expect(worktreeEvents.map((event) => [event.agentId, event.action])).toEqual([
      [child.agentId, 'created'],
      [child.agentId, 'kept'],
    ]);
    expect(result.result).toBe('done');
  });

  it('comes from a definition with `isolation: worktree` as well as from the call', async () => {
    makeGitRepo(repo());
    const { events } = await run(
      [
        {
          toolCalls: [
            {
              name: 'Agent',
              input: { description: 'd', prompt: 'ISOLATED', subagent_type: 'sandboxed' },
            },
          ],
        },
        { match: { prompt: 'ISOLATED' }, text: 'ok' },
        { text: 'done' },
      ],
      {
        agents: {
          sandboxed: { description: 'works apart', prompt: 'SANDBOX', isolation: 'worktree' },
        },
      },
    );
    expect(worktreeOf(events).cwd).toContain(path.join('.warren', 'worktrees'));
  });

  it("is told where it works, and that its parent's uncommitted changes are not there", async () => {
    makeGitRepo(repo(), { 'a.txt': 'committed\n' });
    writeFiles(repo(), { 'a.txt': 'not committed\n' });
    const model = scriptedModel([
      call('Agent', agentCall('TOLD').input),
      { match: { prompt: 'TOLD' }, text: 'ok' },
      { text: 'done' },
    ]);
    await run([], { model });
    const system = JSON.stringify(model.calls[1]?.prompt[0]);
    expect(system).toContain('You work in your own git worktree');
    expect(system).toContain("Uncommitted changes in your parent's checkout are not in it.");
    expect(system).toContain('Your parent has uncommitted changes in 1 path (a.txt)');
  });

  it("forked, keeps its parent's system prompt and is told its worktree in its first message", async () => {
    makeGitRepo(repo());
    const model = scriptedModel([
      call('Agent', agentCall('FORKED-TOLD', { forkContext: true }).input),
      { match: { prompt: 'FORKED-TOLD' }, text: 'ok' },
      { text: 'done' },
    ]);
    const { events } = await run([], { model, systemPrompt: 'MAIN SYSTEM' });
    const child = worktreeOf(events);
    const [parentSystem] = model.calls[0]!.prompt;
    const childPrompt = model.calls[1]!.prompt;
    expect(childPrompt[0]).toEqual(parentSystem);
    expect(childPrompt.filter((message) => message.role === 'system')).toHaveLength(1);
    const first = JSON.stringify(childPrompt.at(-1));
    expect(first).toContain(
      `Your working directory is ${child.cwd}, not the one the system prompt names.`,
    );
    expect(first).toContain('You work in your own git worktree');
    expect(first.indexOf('You work in your own git worktree')).toBeLessThan(
      first.indexOf('Your task:\\nFORKED-TOLD'),
    );
  });

  it('keeps the work of a child that was cancelled, unlocked, and still reports it', async () => {
    makeGitRepo(repo());
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const stream = query({
      prompt: 'MAIN',
      options: {
        model: scriptedModel([
          call('Agent', agentCall('SLOW').input),
          {
            match: { prompt: 'SLOW' },
            ...call('Write', { file_path: 'half.txt', content: 'half done\n' }),
          },
          { match: { prompt: 'SLOW' }, text: 'never', delayMs: 10_000 },
        ]),
        tools: builtinTools(),
        cwd: repo(),
        permissions: createPermissionPolicy({ mode: 'bypassPermissions' }),
        signal: controller.signal,
      },
    });
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'tool_end' && event.toolName === 'Write') controller.abort();
    }
    const kept = ofType(events, 'worktree').find((event) => event.action === 'kept');
    expect(kept).toMatchObject({ changed: true });
    expect(gitIn(repo(), 'show', `${kept!.branch}:half.txt`)).toBe('half done');
    expect(gitIn(repo(), 'worktree', 'list', '--porcelain')).not.toContain('locked');
  });
});

describe('a sub-agent bound to its worktree', () => {
  /** One child that calls `tool` with `input` and reports the result it got. */
  async function childCalls(name: string, input: Record<string, unknown>) {
    const { outputs } = await run([
      call('Agent', agentCall('BOUND').input),
      { match: { prompt: 'BOUND' }, ...call(name, input) },
      { match: { prompt: 'BOUND' }, text: 'reported' },
      { text: 'done' },
    ]);
    return outputs(1)[0]!;
  }

  it('is refused an absolute path into the main checkout, with the reason', async () => {
    makeGitRepo(repo(), { 'a.txt': 'main\n' });
    const result = await childCalls('Write', {
      file_path: path.join(repo(), 'a.txt'),
      content: 'leak',
    });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^Refused: .*a\.txt is in the main checkout .*outside this agent's worktree/,
    );
    expect(readFileSync(path.join(repo(), 'a.txt'), 'utf8')).toBe('main\n');
  });

  it('is refused a path out through ../', async () => {
    makeGitRepo(repo(), { 'a.txt': 'main\n' });
    const result = await childCalls('Edit', {
      file_path: '../../../a.txt',
      old_string: 'main',
      new_string: 'leak',
    });
    expect(result.output).toMatch(/^Refused: \.\.\/\.\.\/\.\.\/a\.txt is in the main checkout/);
    expect(readFileSync(path.join(repo(), 'a.txt'), 'utf8')).toBe('main\n');
  });

  it('is refused a symlink in its worktree that points into the main checkout', async () => {
    makeGitRepo(repo(), { 'a.txt': 'main\n' });
    await symlink(repo(), path.join(repo(), 'back'));
    commitAll(repo(), 'a link back to the checkout');
    const result = await childCalls('Write', { file_path: 'back/a.txt', content: 'leak' });
    expect(result.output).toMatch(/resolves through a symlink to .*a\.txt/);
    expect(readFileSync(path.join(repo(), 'a.txt'), 'utf8')).toBe('main\n');
  });

  it('is not let run `git -C <main checkout>` in print mode, even with bypassPermissions', async () => {
    makeGitRepo(repo(), { 'a.txt': 'main\n' });
    const result = await childCalls('Bash', {
      command: `git -C ${repo()} commit --allow-empty -m leak`,
    });
    expect(result.output).toMatch(
      /was not run: it leaves this agent's git worktree .*no one can be asked in this run/s,
    );
    expect(gitIn(repo(), 'log', '--format=%s')).toBe('first');
  });

  it('may edit its own files under acceptEdits, though its worktree lies under .warren/', async () => {
    makeGitRepo(repo(), { 'a.txt': 'main\n' });
    const { outputs, events } = await run(
      [
        call('Agent', agentCall('EDITOR').input),
        { match: { prompt: 'EDITOR' }, ...call('Write', { file_path: 'new.txt', content: 'x\n' }) },
        { match: { prompt: 'EDITOR' }, text: 'wrote' },
        { text: 'done' },
      ],
      { permissions: createPermissionPolicy({ mode: 'acceptEdits' }) },
    );
    expect(outputs(1)[0]).toMatchObject({ isError: false, output: 'Created new.txt (1 line).' });
    expect(gitIn(repo(), 'show', `warren/${worktreeOf(events).agentId}:new.txt`)).toBe('x');
  });

  it('runs its shell in the worktree', async () => {
    makeGitRepo(repo());
    const result = await childCalls('Bash', { command: 'pwd && git branch --show-current' });
    expect(result.output).toMatch(/\.warren\/worktrees\/(agent_[0-9a-f]{8})\nwarren\/\1$/);
  });

  it("passes its worktree to its children, and a child that asks for its own gets one from its parent's HEAD", async () => {
    makeGitRepo(repo(), { 'a.txt': 'base\n' });
    const { events, worktreeEvents } = await run([
      call('Agent', agentCall('UPPER').input),
      {
        match: { prompt: 'UPPER' },
        ...call('Bash', { command: 'echo upper > a.txt && git commit -qam upper' }),
      },
      {
        match: { prompt: 'UPPER', lastToolResult: '(no output)' },
        toolCalls: [
          { name: 'Agent', input: { description: 'inherits', prompt: 'INHERITS' } },
          agentCall('OWN'),
        ],
      },
      {
        match: { prompt: 'INHERITS' },
        ...call('Write', { file_path: 'from-inheritor.txt', content: 'x\n' }),
      },
      { match: { prompt: 'INHERITS' }, text: 'wrote' },
      { match: { prompt: 'OWN' }, ...call('Read', { file_path: 'a.txt' }) },
      { match: { prompt: 'OWN' }, ...call('Write', { file_path: 'from-own.txt', content: 'y\n' }) },
      { match: { prompt: 'OWN' }, text: 'wrote too' },
      { match: { prompt: 'UPPER' }, text: 'children done' },
      { text: 'done' },
    ]);
    const upper = worktreeOf(events, 1);
    const [inheritor, own] = ofType(events, 'run_start').filter((event) => event.depth === 2);
    const ownRun = [inheritor, own].find((event) => event?.cwd !== upper.cwd)!;
    const inheritRun = [inheritor, own].find((event) => event?.cwd === upper.cwd)!;
    expect(inheritRun).toBeDefined();
    expect(ownRun.cwd).toBe(path.join(repo(), '.warren', 'worktrees', ownRun.agentId));
    const ownRead = ofType(events, 'tool_end').find(
      (event) => event.agentId === ownRun.agentId && event.toolName === 'Read',
    );
    expect(ownRead?.output).toContain('upper');
    const upperBranch = `warren/${upper.agentId}`;
    expect(gitIn(repo(), 'show', `${upperBranch}:from-inheritor.txt`)).toBe('x');
    expect(gitIn(repo(), 'show', `warren/${ownRun.agentId}:from-own.txt`)).toBe('y');
    expect(() => gitIn(repo(), 'show', `${upperBranch}:from-own.txt`)).toThrow();
    expect(
      worktreeEvents
        .filter((event) => event.action === 'kept')
        .map((event) => event.agentId)
        .sort(),
    ).toEqual([upper.agentId, ownRun.agentId].sort());
    expect(existsSync(path.join(repo(), 'from-inheritor.txt'))).toBe(false);
  });
});
