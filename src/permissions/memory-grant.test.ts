import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../core/permission-policy.js';
import type { Tool } from '../core/tool.js';
import { useTempDir } from '../testing/temp-dir.js';
import { editTool } from '../tools/edit.js';
import { readTool } from '../tools/read.js';
import { writeTool } from '../tools/write.js';
import {
  createPermissionPolicy,
  type PermissionPolicyOptions,
} from './create-permission-policy.js';
import { parseRuleList } from './permission-rule.js';

const project = useTempDir('warren-memory-grant-');
const memory = () => path.join(project(), '.warren', 'agent-memory', 'reviewer');

function call(tool: Tool, filePath: string): PermissionRequest {
  return {
    tool,
    input: { file_path: filePath, content: 'x', old_string: 'a', new_string: 'b' },
    cwd: project(),
    allowedDirs: [project()],
    agent: { agentId: 'a', parentId: 'main', depth: 1, agentType: 'reviewer' },
    signal: new AbortController().signal,
  };
}

async function behavior(options: Partial<PermissionPolicyOptions>, request: PermissionRequest) {
  const parent = createPermissionPolicy({ mode: 'default', ...options });
  const policy = parent.derive({ memoryDir: memory() });
  return (await policy.decide(request)).behavior;
}

describe("an agent's memory folder", () => {
  it('is written and edited without asking, in default and plan mode alike', async () => {
    for (const mode of ['default', 'plan'] as const) {
      expect(await behavior({ mode }, call(writeTool, `${memory()}/MEMORY.md`))).toBe('allow');
      expect(
        await behavior({ mode }, call(editTool, '.warren/agent-memory/reviewer/notes.md')),
      ).toBe('allow');
    }
  });

  it('grants nothing beside it: the folder above, a sibling agent, the project', async () => {
    for (const target of [
      '.warren/agent-memory/other/MEMORY.md',
      '.warren/agent-memory/MEMORY.md',
      '.warren/settings.json',
      '.warren/agent-memory/reviewer/../../settings.json',
      'src/a.ts',
    ]) {
      expect(await behavior({}, call(writeTool, target))).toBe('deny');
    }
  });

  it('leaves hidden and protected names inside it protected', async () => {
    for (const target of [
      '.git/hooks/pre-commit',
      '.mcp.json',
      'sub/.claude/agents/x.md',
      'AGENTS.md',
      'notes/CLAUDE.md',
    ]) {
      expect(await behavior({}, call(writeTool, `${memory()}/${target}`))).toBe('deny');
    }
  });

  it('is not a way out through a symlink inside it', async () => {
    await mkdir(memory(), { recursive: true });
    await mkdir(path.join(project(), 'src'));
    await symlink(path.join(project(), 'src'), path.join(memory(), 'code'));
    expect(await behavior({}, call(writeTool, `${memory()}/code/a.ts`))).toBe('deny');
  });

  it('grants nothing when the folder itself is a symlink to elsewhere', async () => {
    const elsewhere = path.join(project(), 'elsewhere');
    await mkdir(elsewhere);
    await mkdir(path.dirname(memory()), { recursive: true });
    await symlink(elsewhere, memory());
    expect(await behavior({}, call(writeTool, `${memory()}/MEMORY.md`))).toBe('deny');
  });

  it('still yields to deny rules', async () => {
    const deny = parseRuleList('Write', '--disallowed-tools');
    expect(await behavior({ deny }, call(writeTool, `${memory()}/MEMORY.md`))).toBe('deny');
  });

  it('covers Write and Edit only', async () => {
    const parent = createPermissionPolicy({ mode: 'plan' });
    const policy = parent.derive({ memoryDir: memory() });
    const bash = { ...readTool, name: 'Bash', isReadOnly: false } as Tool;
    expect((await policy.decide(call(bash, `${memory()}/MEMORY.md`))).behavior).toBe('deny');
  });

  it("belongs to one agent: a child's policy does not inherit it", async () => {
    const agent = createPermissionPolicy({ mode: 'default' }).derive({ memoryDir: memory() });
    const child = agent.derive({});
    expect((await child.decide(call(writeTool, `${memory()}/MEMORY.md`))).behavior).toBe('deny');
  });
});
