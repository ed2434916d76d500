// The worktree's edge in an agent's permission policy: file tools are refused paths into the main
// checkout with the reason; a shell command that leaves needs a person's yes every time (in every
// mode, allow rules or not) and is refused in print mode; deny rules still deny; children keep
// the edge, and an agent with a worktree of its own gets its own edge instead.
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  PermissionDecision,
  PermissionMode,
  PermissionPolicy,
  PermissionRequest,
} from '../core/permission-policy.js';
import type { Tool } from '../core/tool.js';
import {
  type CanUseTool,
  createPermissionPolicy,
  type PermissionPrompt,
} from '../permissions/create-permission-policy.js';
import { parseRuleList } from '../permissions/permission-rule.js';
import { useTempDir } from '../testing/temp-dir.js';
import { bashTool } from '../tools/bash.js';
import { editTool } from '../tools/edit.js';
import { globTool } from '../tools/glob.js';
import { readTool } from '../tools/read.js';
import { confineToWorktree } from './confine-to-worktree.js';
import type { WorktreeBoundary } from './worktree-boundary.js';

const dir = useTempDir('warren-edge-');
let main: string;
let boundary: WorktreeBoundary;

beforeEach(async () => {
  main = path.join(dir(), 'repo');
  const worktree = path.join(main, '.warren', 'worktrees', 'agent_1');
  await mkdir(path.join(worktree, 'src'), { recursive: true });
  await mkdir(path.join(main, 'src'), { recursive: true });
  await mkdir(path.join(main, '.warren', 'worktrees', 'agent_2'), { recursive: true });
  boundary = {
    worktree,
    branch: 'warren/agent_1',
    root: main,
    protectedDirs: [main, path.join(main, '.git')],
  };
});

function request(tool: Tool, input: unknown): PermissionRequest {
  return {
    tool,
    input,
    cwd: boundary.worktree,
    allowedDirs: [boundary.worktree],
    agent: { agentId: 'agent_1', parentId: 'main', depth: 1, agentType: 'general-purpose' },
    signal: new AbortController().signal,
  };
}

function policy(
  options: { mode?: PermissionMode; allow?: string; deny?: string; canUseTool?: CanUseTool } = {},
) {
  return createPermissionPolicy({
    mode: options.mode ?? 'default',
    allow: parseRuleList(options.allow ?? '', '--allowed-tools'),
    deny: parseRuleList(options.deny ?? '', '--disallowed-tools'),
    canUseTool: options.canUseTool,
  });
}

const messageOf = (decision: PermissionDecision) =>
  decision.behavior === 'deny' ? decision.message : '(allowed)';

describe('file tools at the edge of the worktree', () => {
  it('are refused an absolute path into the main checkout, told why and where the file is in the worktree', async () => {
    const edge = confineToWorktree(policy({ mode: 'bypassPermissions' }), boundary);
    const decision = await edge.decide(
      request(editTool, { file_path: `${main}/src/a.ts`, old_string: 'a', new_string: 'b' }),
    );
    expect(messageOf(decision)).toBe(
      `Refused: ${main}/src/a.ts is in the main checkout (${main}), outside this agent's worktree. This agent works in its own git worktree, ${boundary.worktree} (branch warren/agent_1), and may only touch files there. Its counterpart in the worktree is ${boundary.worktree}/src/a.ts.`,
    );
    expect(decision).toMatchObject({
      notice: `Edit was refused: ${main}/src/a.ts is in the main checkout (${main}), outside the agent's worktree; agents in a worktree of their own never touch the main checkout.`,
    });
  });

  it('are refused a relative path out through ..', async () => {
    const edge = confineToWorktree(policy(), boundary);
    const decision = await edge.decide(request(readTool, { file_path: '../../../src/a.ts' }));
    expect(messageOf(decision)).toMatch(
      /^Refused: \.\.\/\.\.\/\.\.\/src\/a\.ts is in the main checkout/,
    );
  });

  it('are refused a symlink inside the worktree that points into the main checkout', async () => {
    await symlink(path.join(main, 'src'), path.join(boundary.worktree, 'shortcut'));
    const edge = confineToWorktree(policy(), boundary);
    const decision = await edge.decide(request(readTool, { file_path: 'shortcut/a.ts' }));
    expect(messageOf(decision)).toContain(`(it resolves through a symlink to ${main}/src/a.ts)`);
  });

  it("are refused another agent's worktree and the git directory, and Glob's search root too", async () => {
    const edge = confineToWorktree(policy(), boundary);
    expect(
      messageOf(await edge.decide(request(readTool, { file_path: '../agent_2/x' }))),
    ).toContain("is in another agent's worktree");
    expect(
      messageOf(await edge.decide(request(readTool, { file_path: `${main}/.git/config` }))),
    ).toContain("is in the repository's git directory");
    expect(messageOf(await edge.decide(request(globTool, { pattern: '**', path: main })))).toMatch(
      /^Refused: .* is in the main checkout/,
    );
    expect(
      messageOf(await edge.decide(request(globTool, { pattern: `${main}/src/**/*.ts` }))),
    ).toMatch(/^Refused: .*\/src is in the main checkout/);
    expect(await edge.decide(request(globTool, { pattern: 'src/**/*.ts' }))).toEqual({
      behavior: 'allow',
    });
  });

  it('go on to the usual rules inside the worktree', async () => {
    const edge = confineToWorktree(policy(), boundary);
    expect(await edge.decide(request(readTool, { file_path: 'src/a.ts' }))).toEqual({
      behavior: 'allow',
    });
    expect(
      messageOf(
        await edge.decide(
          request(editTool, { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }),
        ),
      ),
    ).toMatch(/was not granted/);
  });
});

describe('a shell command that leaves the worktree', () => {
  const leaving = () => request(bashTool, { command: `git -C ${main} commit -am x` });

  it('is refused in print mode (no one to ask), saying why and what to do instead, even with bypassPermissions or an allow rule', async () => {
    for (const options of [{ mode: 'bypassPermissions' as const }, { allow: 'Bash' }, {}]) {
      const decision = await confineToWorktree(policy(options), boundary).decide(leaving());
      expect(messageOf(decision)).toBe(
        `Bash(git -C ${main} commit -am x) was not run: it leaves this agent's git worktree (\`git -C ${main}\` runs git outside the worktree (in ${main})). This agent works in its own git worktree, ${boundary.worktree} (branch warren/agent_1), and may only touch files there. Leaving the worktree needs a person's permission, and no one can be asked in this run. Run git inside the worktree, without -C (its commits go to warren/agent_1), and use paths inside it.`,
      );
    }
  });

  it('tells people, in the output, why it was not run', async () => {
    const decision = await confineToWorktree(policy(), boundary).decide(leaving());
    expect(decision).toMatchObject({
      notice: `Bash(git -C ${main} commit -am x) was not run: it leaves the agent's git worktree ${boundary.worktree} (\`git -C ${main}\` runs git outside the worktree (in ${main})); that needs a person's permission every time, which a run without prompts cannot give.`,
    });
  });

  it('asks a person every time, with the reason, and never remembers the answer', async () => {
    const asked: PermissionPrompt[] = [];
    const canUseTool: CanUseTool = async (prompt) => {
      asked.push(prompt);
      return { behavior: 'allow', remember: prompt.suggestions.exact };
    };
    const edge = confineToWorktree(policy({ mode: 'bypassPermissions', canUseTool }), boundary);
    expect(await edge.decide(leaving())).toEqual({ behavior: 'allow' });
    expect(await edge.decide(leaving())).toEqual({ behavior: 'allow' });
    expect(asked).toHaveLength(2);
    expect(asked[0]?.reason).toBe(
      `the command leaves the agent's git worktree ${boundary.worktree}: \`git -C ${main}\` runs git outside the worktree (in ${main})`,
    );
  });

  it('is still denied by a deny rule, without asking', async () => {
    const asked: PermissionPrompt[] = [];
    const canUseTool: CanUseTool = async (prompt) => {
      asked.push(prompt);
      return { behavior: 'allow' };
    };
    const edge = confineToWorktree(policy({ deny: 'Bash(git:*)', canUseTool }), boundary);
    expect(messageOf(await edge.decide(leaving()))).toMatch(/denied by the rule "Bash\(git:\*\)"/);
    expect(asked).toEqual([]);
  });

  it('that stays inside goes on to the usual rules', async () => {
    const edge = confineToWorktree(policy(), boundary);
    expect(await edge.decide(request(bashTool, { command: 'git status' }))).toEqual({
      behavior: 'allow',
    });
    expect(
      messageOf(await edge.decide(request(bashTool, { command: 'git commit -am x' }))),
    ).toMatch(/was not granted/);
  });
});

describe('the edge down the tree', () => {
  it("holds for the agent's children, whatever mode they ask for", async () => {
    const edge = confineToWorktree(policy({ mode: 'bypassPermissions' }), boundary);
    const child = edge.derive!({ mode: 'acceptEdits' });
    expect(messageOf(await child.decide(request(readTool, { file_path: `${main}/x` })))).toMatch(
      /^Refused/,
    );
    expect(messageOf(await child.decide(request(bashTool, { command: `cd ${main}` })))).toMatch(
      /was not run/,
    );
  });

  it('moves with a nested agent that has a worktree of its own: the parent worktree is then outside', async () => {
    const parentEdge = confineToWorktree(policy({ mode: 'bypassPermissions' }), boundary);
    const own = path.join(main, '.warren', 'worktrees', 'agent_2');
    const nested = confineToWorktree(parentEdge.derive!({}), {
      ...boundary,
      worktree: own,
      branch: 'warren/agent_2',
    });
    const inOwn = { ...request(readTool, { file_path: `${own}/x` }), cwd: own };
    expect(await nested.decide(inOwn)).toEqual({ behavior: 'allow' });
    const inParent = { ...request(readTool, { file_path: `${boundary.worktree}/x` }), cwd: own };
    expect(messageOf(await nested.decide(inParent))).toContain("is in another agent's worktree");
  });

  it('works without any policy: what stays inside is allowed, what leaves is refused', async () => {
    const edge: PermissionPolicy = confineToWorktree(undefined, boundary);
    expect(await edge.decide(request(bashTool, { command: 'rm -rf build' }))).toEqual({
      behavior: 'allow',
    });
    expect(messageOf(await edge.decide(request(bashTool, { command: 'cd /' })))).toMatch(
      /was not run/,
    );
  });
});
