import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { PermissionDecision, PermissionRequest } from '../core/permission-policy.js';
import type { Tool } from '../core/tool.js';
import { useOutsideSandbox } from '../testing/hostile/outside-sandbox.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { bashTool } from '../tools/bash.js';
import {
  type CanUseTool,
  createPermissionPolicy,
  type PermissionPolicyOptions,
  type PermissionPrompt,
} from './create-permission-policy.js';
import { parseRuleList } from './permission-rule.js';

const cwd = '/work/project';

interface FakeInput {
  command?: string;
  file_path?: string;
  subagent_type?: string;
}

function fakeTool(
  name: string,
  isReadOnly: Tool<FakeInput>['isReadOnly'],
  permissionSubject?: Tool<FakeInput>['permissionSubject'],
): Tool {
  const tool: Tool<FakeInput> = {
    name,
    description: `fake ${name}`,
    inputSchema: z.object({
      command: z.string().optional(),
      file_path: z.string().optional(),
      subagent_type: z.string().optional(),
    }),
    isReadOnly,
    isConcurrencySafe: false,
    ...(permissionSubject ? { permissionSubject } : {}),
    call: async () => 'ran',
  };
  return tool as Tool;
}

const relativePath = (input: FakeInput, ctx: { cwd: string }) =>
  path.relative(ctx.cwd, path.resolve(ctx.cwd, input.file_path ?? ''));

const bash = fakeTool(
  'Bash',
  (input) => input.command === 'ls',
  (input) => input.command ?? '',
);
const read = fakeTool('Read', true, relativePath);
const edit = fakeTool('Edit', false, relativePath);
const write = fakeTool('Write', false, relativePath);
const agent = fakeTool('Agent', false);
const mcpDelete = fakeTool('mcp__fs__delete', false);

function request(tool: Tool, input: FakeInput, signal = new AbortController().signal) {
  const call: PermissionRequest = {
    tool,
    input,
    cwd,
    allowedDirs: [cwd],
    agent: { agentId: 'main', parentId: null, depth: 0, agentType: 'main' },
    signal,
  };
  return call;
}

function policyWith(
  options: Partial<PermissionPolicyOptions> & { allowFlag?: string; denyFlag?: string },
) {
  return createPermissionPolicy({
    mode: 'default',
    allow: parseRuleList(options.allowFlag ?? '', '--allowed-tools'),
    deny: parseRuleList(options.denyFlag ?? '', '--disallowed-tools'),
    ...options,
  });
}

const sh = (command: string) => [bash, { command }] as const;
const file = (tool: Tool, file_path: string) => [tool, { file_path }] as const;

type Call = readonly [Tool, FakeInput];

async function decide(policy: ReturnType<typeof policyWith>, [tool, input]: Call) {
  return policy.decide(request(tool, input));
}

async function behavior(policy: ReturnType<typeof policyWith>, call: Call) {
  return (await decide(policy, call)).behavior;
}

function messageOf(decision: PermissionDecision): string {
  if (decision.behavior !== 'deny') throw new Error('expected a deny');
  return decision.message;
}

/** A person who answers from a script and records what they were asked. */
function person(answer: Awaited<ReturnType<CanUseTool>>) {
  const asked: PermissionPrompt[] = [];
  const canUseTool: CanUseTool = async (prompt) => {
    asked.push(prompt);
    return answer;
  };
  return { asked, canUseTool };
}

describe('default mode', () => {
  const policy = policyWith({});

  it('allows read-only calls without asking', async () => {
    expect(await behavior(policy, file(read, 'src/a.ts'))).toBe('allow');
    expect(await behavior(policy, sh('ls'))).toBe('allow');
  });

  it('in print mode denies other calls with the exact flag that would allow them', async () => {
    const decision = await decide(policy, sh('rm -rf build'));
    expect(messageOf(decision)).toBe(
      'Permission to use Bash(rm -rf build) was not granted. To allow it, rerun with --allowed-tools "Bash(rm -rf build)" (or a prefix rule such as "Bash(rm:*)"), or --permission-mode bypassPermissions.',
    );
  });

  it('suggests acceptEdits only for an edit that acceptEdits would allow', async () => {
    expect(messageOf(await decide(policy, file(edit, 'src/a.ts')))).toBe(
      'Permission to use Edit(src/a.ts) was not granted. To allow it, rerun with --allowed-tools "Edit(src/a.ts)" (or a broader rule such as "Edit(src/**)"), or --permission-mode acceptEdits|bypassPermissions.',
    );
    expect(messageOf(await decide(policy, file(edit, '.git/config')))).toMatch(
      /--permission-mode bypassPermissions\.$/,
    );
    expect(messageOf(await decide(policy, [agent, {}]))).toBe(
      'Permission to use Agent was not granted. To allow it, rerun with --allowed-tools "Agent", or --permission-mode bypassPermissions.',
    );
  });

  it('names rules in the message that, passed as the flag, allow the call', async () => {
    const calls: Call[] = [
      sh('rm -rf build'),
      sh('echo "$HOME" && rm x'),
      file(write, 'README.md'),
      file(edit, 'src/routes/[id].ts'),
      file(edit, '../shared/notes.md'),
    ];
    for (const call of calls) {
      const message = messageOf(await decide(policy, call));
      const flags = [
        ...message.slice(message.indexOf('rerun with')).matchAll(/(?:"([^"]+)"|'([^']+)')/g),
      ].map((m) => m[1] ?? m[2]);
      expect(flags.length).toBeGreaterThan(0);
      for (const flag of flags) {
        expect(await behavior(policyWith({ allowFlag: flag }), call), `${flag}`).toBe('allow');
      }
    }
  });

  it('quotes a rule for the shell when double quotes would expand it', async () => {
    expect(messageOf(await decide(policy, sh('echo $HOME')))).toContain(
      `--allowed-tools 'Bash(echo $HOME)'`,
    );
  });

  it('allows what an allow rule matches without asking', async () => {
    const allowing = policyWith({ allowFlag: 'Bash(npm test:*),mcp__fs__*' });
    expect(await behavior(allowing, sh('npm test -- --run'))).toBe('allow');
    expect(await behavior(allowing, [mcpDelete, {}])).toBe('allow');
    expect(await behavior(allowing, sh('npm test && npm publish'))).toBe('deny');
  });
});

describe('deny rules', () => {
  it('win over allow rules and over every mode, bypassPermissions included', async () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const) {
      const policy = policyWith({
        mode,
        allowFlag: 'Bash,Read',
        denyFlag: 'Bash(rm:*),Read(.env)',
      });
      expect(await behavior(policy, sh('npm test && rm -rf /')), mode).toBe('deny');
      expect(await behavior(policy, file(read, 'config/.env')), mode).toBe('deny');
    }
  });

  it('say which rule denied the call and where it came from', async () => {
    const policy = policyWith({ mode: 'bypassPermissions', denyFlag: 'Bash(git push:*)' });
    expect(messageOf(await decide(policy, sh('git push --force')))).toBe(
      'Permission to use Bash(git push --force) is denied by the rule "Bash(git push:*)" from --disallowed-tools. Do not try to get around it: do without it, or report that it is not allowed.',
    );
  });

  it('are not consulted through a person: a denied call is never asked about', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow' });
    const policy = policyWith({ denyFlag: 'Agent', canUseTool });
    expect(await behavior(policy, [agent, {}])).toBe('deny');
    expect(asked).toEqual([]);
  });
});

describe("ask rules (an agent definition's opencode `permission: … ask`)", () => {
  const asks = (text: string) => parseRuleList(text, 'agents/deployer.md permission.bash');

  it('send a call to a person even when it is read-only or acceptEdits would allow it', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow' });
    const policy = policyWith({ mode: 'acceptEdits', canUseTool, ask: asks('Bash,Edit') });
    expect(await behavior(policy, sh('ls'))).toBe('allow');
    expect(await behavior(policy, file(edit, 'src/a.ts'))).toBe('allow');
    expect(asked.map((prompt) => prompt.call)).toEqual(['Bash(ls)', 'Edit(src/a.ts)']);
  });

  it('in print mode deny, naming the rule and the flag that allows the call', async () => {
    const policy = policyWith({ mode: 'acceptEdits', ask: asks('Bash(git push:*)') });
    expect(messageOf(await decide(policy, sh('git push origin main')))).toBe(
      'Permission to use Bash(git push origin main) was not granted: the rule "Bash(git push:*)" from agents/deployer.md permission.bash says to ask first, and no one can be asked here. To allow it, rerun with --allowed-tools "Bash(git push origin main)" (or a prefix rule such as "Bash(git:*)"), or --permission-mode bypassPermissions.',
    );
    expect(await behavior(policy, sh('git status'))).toBe('deny');
    expect(await behavior(policy, sh('ls'))).toBe('allow');
  });

  it('give way to an allow rule, a remembered decision and bypassPermissions', async () => {
    const ask = asks('Bash(git push:*)');
    expect(await behavior(policyWith({ ask, allowFlag: 'Bash(git:*)' }), sh('git push'))).toBe(
      'allow',
    );
    const remembering = policyWith({ ask });
    remembering.store.remember('Bash(git push:*)');
    expect(await behavior(remembering, sh('git push'))).toBe('allow');
    expect(await behavior(policyWith({ ask, mode: 'bypassPermissions' }), sh('git push'))).toBe(
      'allow',
    );
  });

  it('are added by a sub-agent and hold at every depth below it, not above', async () => {
    const root = policyWith({ mode: 'bypassPermissions' });
    const child = root.derive({ mode: 'acceptEdits', ask: asks('Bash') });
    const grandchild = child.derive({});
    expect(await behavior(grandchild, sh('ls'))).toBe('deny');
    expect(await behavior(root.derive({ mode: 'acceptEdits' }), sh('ls'))).toBe('allow');
  });
});

describe('rules with exceptions (opencode: the last matching entry wins)', () => {
  const from = 'agents/builder.md permission.bash';
  const rule = (text: string, except: string[]) => ({
    ...parseRuleList(text, from)[0]!,
    except: except.flatMap((exception) => parseRuleList(exception, from)),
  });

  it('deny what the rule matches but none of its exceptions, part by part of a command', async () => {
    const policy = policyWith({
      mode: 'bypassPermissions',
      deny: [rule('Bash', ['Bash(git status)', 'Bash(npm test *)'])],
    });
    expect(await behavior(policy, sh('git status'))).toBe('allow');
    expect(await behavior(policy, sh('npm test -- --run'))).toBe('allow');
    expect(await behavior(policy, sh('git status && rm -rf build'))).toBe('deny');
    expect(await behavior(policy, sh('git push'))).toBe('deny');
  });

  it('ask about what the rule matches but none of its exceptions', async () => {
    const policy = policyWith({ mode: 'acceptEdits', ask: [rule('Edit', ['Edit(docs/**)'])] });
    expect(await behavior(policy, file(edit, 'docs/guide.md'))).toBe('allow');
    expect(await behavior(policy, file(edit, 'src/a.ts'))).toBe('deny');
  });
});

describe('denials for people', () => {
  const noticeOf = (decision: PermissionDecision) =>
    decision.behavior === 'deny' ? (decision.notice ?? decision.message) : undefined;

  it('say how to allow the call: the flag, the rule to remove, or the mode to leave', async () => {
    expect(noticeOf(await decide(policyWith({}), sh('rm x')))).toMatch(
      /was not granted\. To allow it, rerun with --allowed-tools "Bash\(rm x\)"/,
    );
    expect(noticeOf(await decide(policyWith({ denyFlag: 'Bash(rm:*)' }), sh('rm x')))).toBe(
      'Bash(rm x) was denied by the rule "Bash(rm:*)" from --disallowed-tools; to allow it, remove that rule.',
    );
    expect(noticeOf(await decide(policyWith({ mode: 'plan' }), file(edit, 'a.ts')))).toMatch(
      /^Edit\(a\.ts\) was not run: the agent is in plan mode, which allows only read-only calls; to let it change things, run it in another --permission-mode/,
    );
  });
});

describe('acceptEdits mode', () => {
  const policy = policyWith({ mode: 'acceptEdits', additionalDirs: ['/work/shared'] });

  it('allows Write and Edit inside cwd and the additional folders', async () => {
    expect(await behavior(policy, file(edit, 'src/a.ts'))).toBe('allow');
    expect(await behavior(policy, file(write, 'new/file.md'))).toBe('allow');
    expect(await behavior(policy, file(edit, '../shared/notes.md'))).toBe('allow');
  });

  it('asks for edits outside them', async () => {
    expect(await behavior(policy, file(edit, '../other/a.ts'))).toBe('deny');
    expect(await behavior(policy, file(write, '/etc/hosts'))).toBe('deny');
  });

  it('asks for edits of .git and .warren, which could change what the agent may do', async () => {
    expect(await behavior(policy, file(edit, '.warren/settings.json'))).toBe('deny');
    expect(await behavior(policy, file(write, '.git/hooks/pre-commit'))).toBe('deny');
  });

  it('asks for anything else that is not read-only', async () => {
    expect(await behavior(policy, sh('npm install'))).toBe('deny');
    expect(await behavior(policy, sh('ls'))).toBe('allow');
    expect(messageOf(await decide(policy, file(edit, '../other/a.ts')))).toMatch(
      /--permission-mode bypassPermissions\.$/,
    );
  });
});

describe('protected paths: what warren and other agent tools read on their next run', () => {
  const acceptEdits = policyWith({ mode: 'acceptEdits' });

  it.each([
    '.claude/agents/evil.md',
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.claude/commands/deploy.md',
    '.claude/hooks/pre.sh',
    '.opencode/agent/evil.md',
    '.opencode/agents/evil.md',
    'opencode.json',
    '.codex/config.toml',
    '.gemini/settings.json',
    '.mcp.json',
    'AGENTS.md',
    'CLAUDE.md',
    'WARREN.md',
    'packages/app/CLAUDE.md',
    '.warren/agents/evil.md',
    '.Claude/agents/evil.md',
    'src/../.claude/agents/evil.md',
    '/work/project/.mcp.json',
  ])('acceptEdits asks before writing %s', async (target) => {
    expect(await behavior(acceptEdits, file(write, target))).toBe('deny');
    expect(await behavior(acceptEdits, file(edit, target))).toBe('deny');
  });

  it('acceptEdits still writes files beside them without asking', async () => {
    for (const target of ['src/a.ts', 'claude.txt', 'docs/agents-guide.md', '.claudeignore']) {
      expect(await behavior(acceptEdits, file(write, target))).toBe('allow');
    }
  });

  it('says why the write was not granted and which rule would allow it', async () => {
    expect(messageOf(await decide(acceptEdits, file(write, '.claude/agents/evil.md')))).toBe(
      'Permission to use Write(.claude/agents/evil.md) was not granted: .claude is protected, since it holds Claude Code\'s agents, settings, commands and hooks, read on the next run; only a rule that names it allows the call without asking. To allow it, rerun with --allowed-tools "Write(.claude/agents/evil.md)" (or a broader rule such as "Write(.claude/agents/**)"), or --permission-mode bypassPermissions.',
    );
  });

  it('is not written through by an allow rule that does not name it', async () => {
    for (const allowFlag of ['Write Edit', 'Write(*) Edit(*)', 'Write(**) Edit(**)']) {
      const policy = policyWith({ mode: 'acceptEdits', allowFlag });
      expect(await behavior(policy, file(write, '.claude/agents/evil.md'))).toBe('deny');
      expect(await behavior(policy, file(edit, 'AGENTS.md'))).toBe('deny');
      expect(await behavior(policy, file(write, 'src/a.ts'))).toBe('allow');
    }
  });

  it('is written by an allow rule that names it, and in bypassPermissions mode', async () => {
    const naming = policyWith({ allowFlag: 'Write(.claude/agents/**) Edit(./AGENTS.md)' });
    expect(await behavior(naming, file(write, '.claude/agents/helper.md'))).toBe('allow');
    expect(await behavior(naming, file(edit, 'AGENTS.md'))).toBe('allow');
    const bypass = policyWith({ mode: 'bypassPermissions' });
    expect(await behavior(bypass, file(write, '.claude/agents/helper.md'))).toBe('allow');
  });

  it('is not written through by a remembered decision that does not name it', async () => {
    const policy = policyWith({});
    policy.store.remember('Write(**)');
    expect(await behavior(policy, file(write, '.mcp.json'))).toBe('deny');
    policy.store.remember('Write(./.mcp.json)');
    expect(await behavior(policy, file(write, '.mcp.json'))).toBe('allow');
  });

  it('is protected through a symlink that leads into it', async () => {
    const project = await makeTempDir();
    await mkdir(path.join(project, '.claude', 'agents'), { recursive: true });
    await mkdir(path.join(project, 'docs'));
    await symlink('../.claude', path.join(project, 'docs', 'notes'));
    await symlink('.claude/settings.json', path.join(project, 'settings-link.json'));
    const policy = createPermissionPolicy({ mode: 'acceptEdits' });
    const at = (filePath: string) => ({ ...request(write, { file_path: filePath }), cwd: project });
    expect((await policy.decide(at('docs/notes/agents/evil.md'))).behavior).toBe('deny');
    expect((await policy.decide(at('settings-link.json'))).behavior).toBe('deny');
    expect((await policy.decide(at('docs/readme.md'))).behavior).toBe('allow');
    await rm(project, { recursive: true, force: true });
  });

  it('lets an agent that works inside .warren/worktrees/ write its own files', async () => {
    const worktree = '/work/project/.warren/worktrees/agent-1';
    const policy = createPermissionPolicy({ mode: 'acceptEdits' });
    const call = { ...request(write, { file_path: 'src/a.ts' }), cwd: worktree };
    expect((await policy.decide(call)).behavior).toBe('allow');
    const nested = { ...request(write, { file_path: '.claude/x.md' }), cwd: worktree };
    expect((await policy.decide(nested)).behavior).toBe('deny');
  });

  it("protects warren's home wherever WARREN_HOME puts it", async () => {
    const home = await makeTempDir();
    vi.stubEnv('WARREN_HOME', home);
    try {
      const policy = createPermissionPolicy({ mode: 'acceptEdits', additionalDirs: [home] });
      const at = (filePath: string) => ({ ...request(write, { file_path: filePath }), cwd: home });
      expect((await policy.decide(at('trusted-projects.json'))).behavior).toBe('deny');
      const naming = createPermissionPolicy({
        mode: 'acceptEdits',
        allow: parseRuleList(`Write(/${home}/**)`, '--allowed-tools'),
      });
      expect((await naming.decide(at('settings.json'))).behavior).toBe('allow');
    } finally {
      vi.unstubAllEnvs();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('is not written silently by a Bash command an allow rule would otherwise let through', async () => {
    const policy = policyWith({ mode: 'acceptEdits', allowFlag: 'Bash(echo:*) Bash(cp:*)' });
    for (const command of [
      'echo x > .claude/agents/evil.md',
      'echo x > .cl""aude/agents/evil.md',
      "echo x >> '.mcp.json'",
      'cp evil.md .claude/agents/',
      'cp evil.md AGENTS.md',
      'cp evil.md .warren/settings.json',
    ]) {
      expect(await behavior(policy, sh(command))).toBe('deny');
    }
    expect(await behavior(policy, sh('echo x > notes.txt'))).toBe('allow');
    const naming = policyWith({ allowFlag: 'Bash(cp evil.md .claude/agents/)' });
    expect(await behavior(naming, sh('cp evil.md .claude/agents/'))).toBe('allow');
  });
});

describe('plan mode', () => {
  it('allows read-only calls and denies the rest without asking', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow' });
    const policy = policyWith({ mode: 'plan', canUseTool });
    expect(await behavior(policy, file(read, 'src/a.ts'))).toBe('allow');
    expect(await behavior(policy, sh('ls'))).toBe('allow');
    expect(messageOf(await decide(policy, file(edit, 'src/a.ts')))).toBe(
      'Edit(src/a.ts) was not run: the agent is in plan mode and must not change anything. Use read-only tools to research, then present the plan.',
    );
    expect(await behavior(policy, sh('npm install'))).toBe('deny');
    expect(asked).toEqual([]);
  });

  it('ignores remembered decisions, which only answer a question plan mode never asks', async () => {
    const policy = policyWith({ mode: 'plan' });
    policy.store.remember('Edit');
    expect(await behavior(policy, file(edit, 'src/a.ts'))).toBe('deny');
  });

  it('still honours allow rules given for the run', async () => {
    const policy = policyWith({ mode: 'plan', allowFlag: 'Bash(npm test:*)' });
    expect(await behavior(policy, sh('npm test'))).toBe('allow');
  });
});

describe('bypassPermissions mode', () => {
  it('allows every call that no deny rule matches', async () => {
    const policy = policyWith({ mode: 'bypassPermissions' });
    expect(await behavior(policy, sh('rm -rf build'))).toBe('allow');
    expect(await behavior(policy, file(write, '/etc/hosts'))).toBe('allow');
    expect(await behavior(policy, [agent, {}])).toBe('allow');
  });
});

describe('asking', () => {
  it('asks the callback with the call, its subject and rules to offer', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow' });
    const policy = policyWith({ canUseTool });
    expect(await behavior(policy, sh('rm -rf build'))).toBe('allow');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      call: 'Bash(rm -rf build)',
      subject: 'rm -rf build',
      suggestions: { exact: 'Bash(rm -rf build)', broader: 'Bash(rm:*)' },
      agent: { agentId: 'main', agentType: 'main' },
      cwd,
    });
  });

  it('passes on a replaced input and a denial message', async () => {
    const replacing = policyWith(person({ behavior: 'allow', input: { command: 'rm -r build' } }));
    expect(await decide(replacing, sh('rm -rf build'))).toEqual({
      behavior: 'allow',
      input: { command: 'rm -r build' },
    });
    const refusing = policyWith(person({ behavior: 'deny', message: 'Not on Fridays.' }));
    expect(await decide(refusing, sh('rm -rf build'))).toEqual({
      behavior: 'deny',
      message: 'Not on Fridays.',
    });
  });

  it('remembers an "always allow" rule and does not ask again for calls it matches', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow', remember: 'Bash(npm test:*)' });
    const policy = policyWith({ canUseTool });
    await decide(policy, sh('npm test'));
    expect(await behavior(policy, sh('npm test -- --watch'))).toBe('allow');
    expect(asked.map((prompt) => prompt.call)).toEqual(['Bash(npm test)']);
    expect(policy.store.list()).toEqual(['Bash(npm test:*)']);
  });

  it('in print mode, allows what the store remembers instead of denying it', async () => {
    const policy = policyWith({});
    policy.store.remember('Edit(src/**)');
    expect(await behavior(policy, file(edit, 'src/a.ts'))).toBe('allow');
    expect(await behavior(policy, file(edit, 'lib/a.ts'))).toBe('deny');
  });

  it('denies when the run is cancelled while waiting for an answer', async () => {
    const controller = new AbortController();
    const policy = policyWith({ canUseTool: () => new Promise(() => {}) });
    const decision = policy.decide(request(bash, { command: 'rm x' }, controller.signal));
    controller.abort();
    expect(messageOf(await decision)).toBe(
      'The run was cancelled while waiting for permission to use Bash(rm x).',
    );
  });

  it('turns a failing callback or subject into a deny instead of throwing', async () => {
    const failing = policyWith({
      canUseTool: async () => {
        throw new Error('terminal closed');
      },
    });
    expect(messageOf(await decide(failing, sh('rm x')))).toBe(
      'Permission to use Bash could not be checked (terminal closed), so it was not run.',
    );
    const broken = fakeTool('Broken', false, () => {
      throw new Error('no subject');
    });
    expect(messageOf(await decide(policyWith({ mode: 'bypassPermissions' }), [broken, {}]))).toBe(
      'Permission to use Broken could not be checked (no subject), so it was not run.',
    );
  });

  it('denies when the callback asks to remember a rule that does not parse', async () => {
    const policy = policyWith(person({ behavior: 'allow', remember: 'Bash(npm test' }));
    expect(messageOf(await decide(policy, sh('npm test')))).toContain('has no closing ")"');
  });
});

describe("a PreToolUse hook's answer", () => {
  const withHook = (call: Call, behavior: 'allow' | 'ask', onAsk?: (message: string) => void) => ({
    ...request(call[0], call[1]),
    hookDecision: { behavior, reason: 'the hook said so' },
    onAsk,
  });

  it('allow skips the mode and asking, but never a deny rule', async () => {
    const policy = policyWith({ mode: 'plan', denyFlag: 'Bash(rm:*)' });
    expect((await policy.decide(withHook(sh('make build'), 'allow'))).behavior).toBe('allow');
    expect((await policy.decide(withHook(sh('rm -rf /'), 'allow'))).behavior).toBe('deny');
  });

  it('ask puts a person in front of a call the mode or a rule would allow, and says so first', async () => {
    const { asked, canUseTool } = person({ behavior: 'deny', message: 'not now' });
    const notes: string[] = [];
    const policy = policyWith({ mode: 'bypassPermissions', allowFlag: 'Read', canUseTool });
    const decision = await policy.decide(withHook(file(read, 'a.ts'), 'ask', (m) => notes.push(m)));
    expect(messageOf(decision)).toBe('not now');
    expect(asked.map((prompt) => prompt.call)).toEqual(['Read(a.ts)']);
    expect(notes).toEqual(['warren needs your permission to use Read(a.ts)']);
  });

  it('ask with nobody to ask is a deny that gives the reason', async () => {
    const decision = await policyWith({ mode: 'bypassPermissions' }).decide(
      withHook(sh('ls'), 'ask'),
    );
    expect(messageOf(decision)).toBe(
      'Bash(ls) was not run: a PreToolUse hook asks for a person to confirm it (the hook said so), and there is no one to ask in this run.',
    );
  });
});

describe('derived sub-agent policies', () => {
  it('share one store: a decision remembered anywhere in the tree holds everywhere', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow', remember: 'Bash(npm test:*)' });
    const root = policyWith({ canUseTool });
    const child = root.derive({});
    const grandchild = child.derive({ mode: 'default' });
    expect(grandchild.store).toBe(root.store);

    await decide(grandchild, sh('npm test'));
    expect(await behavior(root, sh('npm test -- --run'))).toBe('allow');
    expect(await behavior(child, sh('npm test'))).toBe('allow');
    expect(asked).toHaveLength(1);

    child.store.remember('Edit(src/**)');
    expect(await behavior(root, file(edit, 'src/a.ts'))).toBe('allow');
  });

  it('inherit the parent deny rules at every depth and add their own', async () => {
    const root = policyWith({ mode: 'bypassPermissions', denyFlag: 'Bash(git push:*)' });
    const child = root.derive({ deny: parseRuleList('Write', 'agents/worker.md disallowedTools') });
    const grandchild = child.derive({});
    expect(await behavior(grandchild, sh('git push'))).toBe('deny');
    expect(messageOf(await decide(grandchild, file(write, 'a.md')))).toContain(
      'from agents/worker.md disallowedTools',
    );
    expect(await behavior(grandchild, sh('npm test'))).toBe('allow');
    expect(await behavior(root, file(write, 'a.md'))).toBe('allow');
  });

  it('keep the parent allow rules and its way of asking', async () => {
    const { asked, canUseTool } = person({ behavior: 'allow' });
    const child = policyWith({ allowFlag: 'Bash(npm test:*)', canUseTool }).derive({});
    expect(await behavior(child, sh('npm test'))).toBe('allow');
    expect(await behavior(child, sh('npm publish'))).toBe('allow');
    expect(asked.map((prompt) => prompt.call)).toEqual(['Bash(npm publish)']);
  });

  it('run in the parent mode unless they ask for a stricter one', () => {
    const modeOf = (
      parent: PermissionPolicyOptions['mode'],
      child?: PermissionPolicyOptions['mode'],
    ) => policyWith({ mode: parent }).derive(child ? { mode: child } : {}).mode;
    expect(modeOf('acceptEdits')).toBe('acceptEdits');
    expect(modeOf('bypassPermissions')).toBe('bypassPermissions');
    expect(modeOf('bypassPermissions', 'plan')).toBe('plan');
    expect(modeOf('acceptEdits', 'default')).toBe('default');
  });

  it('are never more permissive than the parent', async () => {
    const modeOf = (
      parent: PermissionPolicyOptions['mode'],
      child: PermissionPolicyOptions['mode'],
    ) => policyWith({ mode: parent }).derive({ mode: child }).mode;
    expect(modeOf('plan', 'bypassPermissions')).toBe('plan');
    expect(modeOf('plan', 'default')).toBe('plan');
    expect(modeOf('default', 'bypassPermissions')).toBe('default');
    expect(modeOf('default', 'acceptEdits')).toBe('default');
    expect(modeOf('acceptEdits', 'bypassPermissions')).toBe('acceptEdits');

    const planner = policyWith({ mode: 'plan' }).derive({ mode: 'bypassPermissions' });
    expect(await behavior(planner.derive({ mode: 'bypassPermissions' }), file(edit, 'a.ts'))).toBe(
      'deny',
    );
  });
});

describe('the Bash tool under the default mode of print mode', () => {
  const sandbox = useOutsideSandbox();

  it('denies a read through a symlink that leads out, saying why and which rule allows it', async () => {
    const policy = createPermissionPolicy({ mode: 'default' });
    const { project, outside } = sandbox();
    const decision = await policy.decide({
      ...request(bashTool, { command: 'cat link_file' }),
      cwd: project,
      allowedDirs: [project],
    });
    expect(messageOf(decision)).toBe(
      `Permission to use Bash(cat link_file) was not granted: it is not read-only, because it reads link_file, which is ${outside}/canary.txt, outside the allowed directories (${project}). To allow it, rerun with --allowed-tools "Bash(cat link_file)" (or a prefix rule such as "Bash(cat:*)"), or --permission-mode bypassPermissions.`,
    );
  });

  it('allows a read inside the project without asking', async () => {
    const policy = createPermissionPolicy({ mode: 'default' });
    const { project } = sandbox();
    const decision = await policy.decide({
      ...request(bashTool, { command: 'cat a.js | head -n 1' }),
      cwd: project,
      allowedDirs: [project],
    });
    expect(decision.behavior).toBe('allow');
  });
});
