import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aliasFanOutDefinition } from '../testing/hostile/hostile-definitions.js';
import { makeTempDir } from '../testing/temp-dir.js';
import type { AgentLoadEntry } from './agent-load-entry.js';
import { loadAgentFile } from './load-agent-file.js';

const corpus = fileURLToPath(new URL('./fixtures/corpus/', import.meta.url));

function loadFixture(relative: string): Promise<AgentLoadEntry> {
  return loadAgentFile({ path: path.join(corpus, relative), kind: 'project' });
}

/** Loads a hand-written file from a fresh temp folder. */
async function loadText(text: string, fileName = 'agent.md'): Promise<AgentLoadEntry> {
  const dir = await makeTempDir('warren-agent-file-');
  const file = path.join(dir, fileName);
  await writeFile(file, text);
  return loadAgentFile({ path: file, kind: 'project' });
}

const messages = (diagnostics: { message: string }[]) =>
  diagnostics.map((d) => d.message).join('\n');

describe('loadAgentFile on real files', () => {
  it('recovers a 3.4 KB one-line description with an unquoted `: `, `\\n` escapes and <example> blocks', async () => {
    const entry = await loadFixture('is4co__claude-agents/agents/db-guardian.md');
    expect(entry.status).toBe('ok');
    const description = entry.definition!.description;
    expect(description.length).toBeGreaterThan(3000);
    expect(description).toMatch(/^Use this agent when you need to ensure database health/);
    expect(description).toContain('This includes: checking data integrity');
    expect(description).toContain('\\n\\n<example>\\nContext:');
    expect(description).toMatch(/<\/example>$/);
    expect(entry.definition!.model).toBe('sonnet');
    expect(entry.warnings).toEqual([
      {
        line: 3,
        message: expect.stringContaining(
          '`description` is not valid YAML (its value holds an unquoted `: `)',
        ),
      },
    ]);
  });

  it("recovers VoltAgent's `Triggers on:` description and keeps the fields after it", async () => {
    const entry = await loadFixture(
      'VoltAgent__awesome-claude-code-subagents/categories/04-quality-security/gdpr-ccpa-compliance.md',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition!.description).toMatch(/Triggers on: 'GDPR', .*'California privacy'\.$/);
    expect(entry.definition!.tools).toEqual(['Read', 'Grep', 'Glob', 'WebFetch']);
    expect(entry.unknownTools).toEqual(['WebSearch']);
  });

  it('recovers a description broken over a blank line', async () => {
    const entry = await loadFixture(
      'DoozieSoftware__everything-opencode/docs/ja-JP/agents/go-reviewer.md',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition!.description).toBe(
      '慣用的なGo、並行処理パターン、エラー処理、パフォーマンスを専門とする専門Goコードレビュアー。すべてのGo\nコード変更に使用してください。Goプロジェクトに必須です。',
    );
    expect(entry.definition!.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
    expect(messages(entry.warnings)).toContain('broken over a blank line');
  });

  it('finds the frontmatter of a fully indented file and says what it fixed', async () => {
    const entry = await loadFixture('0xfurai__claude-code-subagents/agents/sqs-expert.md');
    expect(entry.status).toBe('ok');
    expect(entry.definition!.name).toBe('sqs-expert');
    expect(entry.definition!.description).toBe(
      'Expertise in Amazon SQS for reliable, scalable message queuing.',
    );
    expect(messages(entry.warnings)).toContain('removed 4 spaces of indentation');
  });

  it('reads a dated Claude model id as an anthropic model', async () => {
    const entry = await loadFixture('0xfurai__claude-code-subagents/agents/sqs-expert.md');
    expect(entry.definition!.model).toBe('anthropic:claude-sonnet-4-20250514');
  });

  it('keeps a body that contains `---` lines and frontmatter-like blocks whole', async () => {
    const entry = await loadFixture('wshobson__agents/plugins/c4-architecture/agents/c4-code.md');
    expect(entry.status).toBe('ok');
    expect(entry.definition!.prompt).toMatch(/^You are a C4 Code-level documentation specialist/);
    expect(entry.definition!.prompt).toContain(
      '```mermaid\n---\ntitle: Code Diagram for [Component Name]\n---',
    );
    expect(entry.definition!.model).toBe('haiku');
    expect(entry.warnings).toEqual([]);
  });

  it('reads `tools: []` as no tools and a folded description without its trailing newline', async () => {
    const entry = await loadFixture(
      'wshobson__agents/plugins/arm-cortex-microcontrollers/agents/arm-cortex-expert.md',
    );
    expect(entry.definition!.tools).toEqual([]);
    expect(entry.definition!.description).not.toMatch(/\s$/);
  });

  it('keeps a name that differs from the file name, with a note', async () => {
    const entry = await loadFixture(
      'wshobson__agents/plugins/api-scaffolding/agents/backend-architect.md',
    );
    expect(entry.name).toBe('api-scaffolding-backend-architect');
    expect(messages(entry.notes)).toContain('differs from the file name "backend-architect"');
    expect(entry.warnings).toEqual([]);
  });

  it('names an agent without `name` after its file, with a warning', async () => {
    const entry = await loadFixture(
      'TechDufus__oh-my-claude/plugins/oh-my-claude/agents/advisor.md',
    );
    expect(entry.status).toBe('ok');
    expect(entry.name).toBe('advisor');
    expect(entry.definition!.disallowedTools).toEqual(['Write', 'Edit']);
    expect(entry.definition!.memory).toBe('project');
    expect(entry.definition!.model).toBe('inherit');
    expect(messages(entry.warnings)).toContain(
      'no `name`: the agent is named "advisor" after its file',
    );
  });

  it('reads an opencode tools map as inherit-all minus the tools switched off', async () => {
    const entry = await loadFixture(
      'DoozieSoftware__everything-opencode/.opencode/agents/code-reviewer.md',
    );
    expect(entry.definition!.tools).toBeUndefined();
    expect(entry.definition!.disallowedTools).toEqual(['Write', 'Edit']);
    expect(entry.definition!.extra).toEqual({ mode: 'subagent' });
  });

  it('keeps unknown opencode keys in extra and warns; reads `permissions` as `permission`', async () => {
    const entry = await loadFixture(
      'darrenhinde__OpenAgentsControl/.opencode/agent/core/openagent.md',
    );
    expect(entry.status).toBe('ok');
    expect(entry.name).toBe('openagent');
    expect(messages(entry.notes)).toContain('read the name "OpenAgent" as "openagent"');
    expect(entry.definition!.extra).toMatchObject({
      id: 'openagent',
      category: 'core',
      version: '1.0.0',
      mode: 'primary',
    });
    expect(entry.definition!.temperature).toBe(0.2);
    // Written for opencode 1 under OpenCode 2's name: its rules hold (they only take away).
    expect(messages(entry.notes)).toContain('read `permissions` as `permission`');
    expect(entry.definition!.permissionRules).toContainEqual(
      expect.objectContaining({ behavior: 'ask', rule: 'Bash(rm -rf *)' }),
    );
    const unknown = entry.warnings.find((w) => w.message.startsWith('unknown fields'));
    expect(unknown?.message).toContain('`category`');
    expect(unknown?.line).toBe(3);
  });

  it('maps opencode `steps` to maxTurns and keeps its other fields in extra', async () => {
    const entry = await loadFixture(
      'uplift-labs__opencode-agents-and-skills/.opencode/agents/qwen-local-worker.md',
    );
    expect(entry.definition!.maxTurns).toBeTypeOf('number');
    expect(entry.definition!.extra).toHaveProperty('top_p');
    expect(entry.definition!.extra).not.toHaveProperty('steps');
    expect(messages(entry.notes)).toContain('read `steps` as `maxTurns`');
    expect(messages(entry.warnings)).toContain('provider `qwen-local`');
  });

  it('reads a `|` description, ignores a commented-out permissionMode, keeps Bash patterns', async () => {
    const entry = await loadFixture('popup-studio-ai__bkit-claude-code/agents/bkend-expert.md');
    const definition = entry.definition!;
    expect(definition.description).toMatch(/^bkend\.ai BaaS platform expert agent\.\nHandles/);
    expect(definition.description).not.toMatch(/\n$/);
    expect(definition.permissionMode).toBeUndefined();
    expect(definition.maxTurns).toBe(20);
    expect(definition.disallowedTools).toEqual([
      'Bash(rm -rf*)',
      'Bash(git push*)',
      'Bash(git reset --hard*)',
    ]);
    expect(definition.skills).toContain('dynamic');
    expect(definition.effort).toBe('medium');
    expect(definition.extra).toEqual({});
  });

  it('turns Task(x) into Agent with spawnable types and passes the unknown model `fable` through', async () => {
    const entry = await loadFixture(
      'popup-studio-ai__bkit-claude-code/agents/sprint-orchestrator.md',
    );
    const definition = entry.definition!;
    expect(definition.tools).toContain('Agent');
    expect(definition.tools).not.toContain('Task');
    expect(definition.spawnableAgents).toEqual(
      expect.arrayContaining(['gap-detector', 'code-analyzer', 'Explore']),
    );
    expect(definition.model).toBe('fable');
    expect(messages(entry.warnings)).toContain('does not know the model `fable`');
  });

  it('drops non-tools listed in `tools` with a note on that line, for the run to warn about once', async () => {
    const entry = await loadFixture(
      'VoltAgent__awesome-claude-code-subagents/categories/09-meta-orchestration/codebase-orchestrator.md',
    );
    expect(entry.definition!.tools).toEqual([
      'Read',
      'Write',
      'Edit',
      'Bash',
      'Glob',
      'Grep',
      'WebFetch',
    ]);
    const note = entry.notes.find((w) => w.message.startsWith('`tools`: dropped'));
    expect(note?.message).toContain('`pied-piper`');
    expect(note?.line).toBe(4);
    expect(entry.unknownTools).toContain('pied-piper');
  });

  it('takes `tools` from the real field, not from commented-out alternatives', async () => {
    const entry = await loadFixture('is4co__claude-agents/templates/secure-agent-template.md');
    expect(entry.definition!.tools).toEqual(['Read']);
  });

  it('reads maxTurns and isolation', async () => {
    const entry = await loadFixture(
      'Donchitos__Claude-Code-Game-Studios/.claude/agents/prototyper.md',
    );
    expect(entry.definition).toMatchObject({
      maxTurns: 25,
      isolation: 'worktree',
      model: 'sonnet',
    });
  });

  it('honours an opencode `permission` block: asks before every Bash command, lets `task` start only the agents it allows', async () => {
    const entry = await loadFixture(
      'joaocaetanoramos__opencode-agents-library/src/agents/teams/saas/saas-build.md',
    );
    expect(entry.name).toBe('saas-build');
    expect(entry.definition!.extra).not.toHaveProperty('permission');
    expect(entry.definition!.permissionRules).toEqual([
      { behavior: 'ask', rule: 'Bash', field: 'permission.bash' },
      {
        behavior: 'deny',
        rule: 'Agent',
        except: [
          'Agent(requirements-analyzer)',
          'Agent(architect)',
          'Agent(code-generator)',
          'Agent(test-generator)',
          'Agent(sdd-compliance)',
        ],
        field: 'permission.task',
      },
      { behavior: 'ask', rule: 'Agent(code-generator)', field: 'permission.task' },
      { behavior: 'ask', rule: 'Agent(test-generator)', field: 'permission.task' },
      { behavior: 'ask', rule: 'Agent(sdd-compliance)', field: 'permission.task' },
      { behavior: 'deny', rule: 'Agent(code-reviewer)', field: 'permission.task' },
      { behavior: 'deny', rule: 'Agent(docs-writer)', field: 'permission.task' },
    ]);
  });

  it('switches off the tools an opencode `permission` block denies outright', async () => {
    const entry = await loadFixture(
      'uplift-labs__opencode-agents-and-skills/.opencode/agents/qwen-local-worker.md',
    );
    expect(entry.definition!.disallowedTools).toEqual(
      expect.arrayContaining(['Bash', 'Edit', 'Write', 'Agent', 'WebFetch']),
    );
    expect(entry.definition!.disallowedTools).not.toContain('Read');
    expect(messages(entry.notes)).toContain('opencode `permission`: switches off');
  });

  it('records where the definition came from', async () => {
    const entry = await loadFixture('wshobson__agents/plugins/c4-architecture/agents/c4-code.md');
    expect(entry.definition!.source).toEqual({
      kind: 'project',
      path: path.join(corpus, 'wshobson__agents/plugins/c4-architecture/agents/c4-code.md'),
      format: 'warren',
    });
  });
});

describe('loadAgentFile on hand-written files', () => {
  it('reads every warren field', async () => {
    const entry = await loadText(
      [
        '---',
        'name: worker',
        'description: Does the work.',
        'tools: Read, Agent(helper)',
        'disallowedTools: [Bash]',
        'model: openai:gpt-5',
        'permissionMode: acceptEdits',
        'maxTurns: 12',
        'timeBudgetMs: 60000',
        'tokenBudget: "50000"',
        'mcpServers:',
        '  - github',
        '  - local: { command: node, args: [server.js] }',
        'background: true',
        'isolation: worktree',
        'agents: helper, reviewer',
        'color: blue',
        'hooks: { SubagentStop: [] }',
        'outputSchema: { type: object, properties: { ok: { type: boolean } } }',
        'onFailure: fatal',
        'skills: [testing]',
        'memory: local',
        'forkContext: true',
        'omitClaudeMd: true',
        '---',
        'You are the worker.',
      ].join('\n'),
    );
    expect(entry.warnings).toEqual([]);
    expect(entry.notes).toContainEqual({
      line: 24,
      message: 'read `omitClaudeMd` as `omitProjectInstructions`',
    });
    expect(entry.definition).toEqual({
      name: 'worker',
      description: 'Does the work.',
      prompt: 'You are the worker.',
      tools: ['Read', 'Agent'],
      spawnableAgents: ['helper'],
      disallowedTools: ['Bash'],
      model: 'openai:gpt-5',
      permissionMode: 'acceptEdits',
      maxTurns: 12,
      timeBudgetMs: 60000,
      tokenBudget: 50000,
      mcpServers: ['github', { local: { command: 'node', args: ['server.js'] } }],
      background: true,
      isolation: 'worktree',
      agents: ['helper', 'reviewer'],
      color: 'blue',
      hooks: { SubagentStop: [] },
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      onFailure: 'fatal',
      skills: ['testing'],
      memory: 'local',
      forkContext: true,
      omitProjectInstructions: true,
      extra: {},
      source: { kind: 'project', path: expect.stringMatching(/agent\.md$/), format: 'warren' },
    });
  });

  it('refuses a file whose hooks, outputSchema or onFailure cannot be used, naming each problem', async () => {
    const entry = await loadText(
      [
        '---',
        'name: guarded',
        'description: d',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: "("',
        '      hooks: [{ type: command, command: ./guard.sh }]',
        'outputSchema: { type: array }',
        'onFailure: sometimes',
        '---',
        'body',
      ].join('\n'),
    );
    expect(entry.status).toBe('error');
    expect(entry.error?.line).toBe(8);
    expect(entry.error?.message.split('; ')).toEqual([
      expect.stringMatching(
        /^`outputSchema` must be a JSON Schema of an object .*: the schema must describe an object/,
      ),
      expect.stringMatching(/^`onFailure` must be `recoverable` or `fatal` \(got "sometimes"\)$/),
      expect.stringMatching(/^`hooks.PreToolUse\[0\].matcher` is not a valid regular expression/),
    ]);
  });

  it('loads hooks with Claude Code events warren does not fire, and says which are ignored', async () => {
    const entry = await loadText(
      '---\nname: a\ndescription: d\nhooks:\n  PreCompact: [{ hooks: [{ type: command, command: x }] }]\n---\nbody',
    );
    expect(entry.status).toBe('ok');
    expect(messages(entry.warnings)).toBe(
      '`hooks.PreCompact`: PreCompact is a Claude Code event warren does not fire; its hooks are ignored',
    );
  });

  it("drops another tool's hook blocks (`pre:`, `post:`) with a warning, and keeps the rest", async () => {
    const entry = await loadText(
      [
        '---',
        'name: a',
        'description: d',
        'hooks:',
        '  pre: ./setup.sh',
        '  post: [./cleanup.sh]',
        '  PreToolUse: [{ matcher: Bash, hooks: [{ type: command, command: ./guard.sh }] }]',
        '---',
        'body',
      ].join('\n'),
    );
    expect(entry.status).toBe('ok');
    expect(entry.warnings).toEqual([
      {
        line: 4,
        message: expect.stringMatching(
          /^`hooks`: `pre`, `post` are not a hook event \(another tool's hook block\?\); dropped\./,
        ),
      },
    ]);
    expect(Object.keys(entry.definition!.hooks!)).toEqual(['PreToolUse']);
  });

  it('still refuses a mistyped hook event: a guard must not go missing quietly', async () => {
    const entry = await loadText(
      '---\nname: a\ndescription: d\nhooks:\n  pretooluse: [{ hooks: [{ type: command, command: x }] }]\n---\nbody',
    );
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toContain('unknown hook event "pretooluse"');
  });

  it('drops a field with a bad value and names the field, the line and what it must be', async () => {
    const entry = await loadText(
      '---\nname: agent\ndescription: d\nmaxTurns: lots\npermissionMode: yolo\n---\nbody',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition!.maxTurns).toBeUndefined();
    expect(entry.definition!.permissionMode).toBeUndefined();
    expect(entry.warnings).toEqual([
      {
        line: 4,
        message: '`maxTurns` must be a whole number above 0 (got "lots"); the field is ignored',
      },
      {
        line: 5,
        message: expect.stringMatching(
          /^`permissionMode` must be one of default, acceptEdits, plan, bypassPermissions/,
        ),
      },
    ]);
  });

  it('gives an agent whose tool list cannot be read no tools rather than all', async () => {
    const entry = await loadText(
      '---\nname: agent\ndescription: d\ntools:\n  - Read: yes\n---\nbody',
    );
    expect(entry.definition!.tools).toEqual([]);
    expect(entry.warnings).toEqual([
      { line: 4, message: expect.stringContaining('the agent gets no tools until this is fixed') },
    ]);
  });

  it('reads near-miss spellings of warren fields', async () => {
    const entry = await loadText(
      '---\ndescription: d\nmax_turns: 5\ndisallowed-tools: Bash\n---\nbody',
    );
    expect(entry.definition).toMatchObject({ maxTurns: 5, disallowedTools: ['Bash'] });
    expect(messages(entry.notes)).toContain('read `max_turns` as `maxTurns`');
  });

  it('is an error entry, naming the line and the fix, when `description` is missing', async () => {
    const entry = await loadText('---\nname: lost\n---\nYou are lost.');
    expect(entry.status).toBe('error');
    expect(entry.definition).toBeUndefined();
    expect(entry.error?.message).toMatch(/^`description` is missing: add `description:/);
  });

  it('is an error entry when the file has no frontmatter', async () => {
    const entry = await loadText('# Notes\n\nNot an agent.', 'notes.md');
    expect(entry).toMatchObject({ name: 'notes', status: 'error', error: { line: 1 } });
    expect(entry.error?.message).toContain('no frontmatter');
  });

  it('is an error entry when the file cannot be read', async () => {
    const dir = await makeTempDir('warren-agent-file-');
    const entry = await loadAgentFile({ path: path.join(dir, 'gone.md'), kind: 'user' });
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toContain('cannot read the file');
  });

  it('warns about an empty body', async () => {
    const entry = await loadText('---\ndescription: d\n---\n');
    expect(entry.definition!.prompt).toBe('');
    expect(messages(entry.warnings)).toContain('the prompt is empty');
  });

  it('ignores `prompt` in the frontmatter when the body holds the prompt', async () => {
    const entry = await loadText('---\nname: agent\ndescription: d\nprompt: other\n---\nThe body.');
    expect(entry.definition!.prompt).toBe('The body.');
    expect(entry.warnings).toEqual([
      { line: 4, message: expect.stringContaining('`prompt` in the frontmatter is ignored') },
    ]);
  });
});

describe('loadAgentFile on hostile and broken files: an error entry naming file:line, never a throw', () => {
  it('refuses a YAML alias fan-out (3 anchors × 30 references), naming the line of the first alias', async () => {
    const entry = await loadText(aliasFanOutDefinition());
    expect(entry).toMatchObject({ name: 'agent', status: 'error', error: { line: 5 } });
    expect(entry.error?.message).toMatch(
      /cannot be expanded \(Excessive alias count.*\): write the values out/,
    );
  });

  it('refuses an alias used inside its own anchor', async () => {
    const entry = await loadText('---\ndescription: d\ntools: &t [Read, *t]\n---\nbody');
    expect(entry).toMatchObject({ status: 'error', error: { line: 3 } });
    expect(entry.error?.message).toContain('used inside its own anchor');
  });

  it('keeps keys such as `constructor` and `__proto__` as unknown keys', async () => {
    const entry = await loadText(
      '---\ndescription: d\nconstructor: 1\n__proto__: { tools: [] }\ntoString: x\n---\nbody',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition!.tools).toBeUndefined();
    expect(Object.keys(entry.definition!.extra).sort()).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(entry.warnings[0]).toMatchObject({ line: 3 });
  });
});

describe('agent names', () => {
  const withName = (name: string) => loadText(`---\nname: ${name}\ndescription: d\n---\nbody`);

  it.each([
    ['../x', 'holds "/"'],
    ['/abs', 'holds "/"'],
    ['"a\\\\b"', 'holds "\\\\"'],
    ['"a\\0b"', 'holds "\\u{0}"'],
    ['"two\\nlines"', 'holds "\\u{a}"'],
    ['"\u202Eevil"', 'holds "\\u{202e}"'],
    ['-flag', 'starts with "-"'],
    ['x'.repeat(65), 'is 65 characters long'],
  ])('refuses `name: %s`, naming the line and the fix', async (name, why) => {
    const entry = await withName(name);
    expect(entry.status).toBe('error');
    expect(entry.error?.line).toBe(2);
    expect(entry.error?.message).toContain(`is not a valid agent name (it ${why})`);
    expect(entry.error?.message).toMatch(
      /write it as `name: [a-z0-9][a-z0-9._-]*`.*1 to 64 letters/,
    );
    for (const raw of ['\u0000', '\n', '\u202e']) expect(entry.error?.message).not.toContain(raw);
  });

  it('writes a name in lower case with `-` for spaces, with a note', async () => {
    const entry = await withName('Context Retriever');
    expect(entry.name).toBe('context-retriever');
    expect(messages(entry.notes)).toContain(
      'read the name "Context Retriever" as "context-retriever"',
    );
  });

  it.each([
    ['UI/UX Designer', 'ui-ux-designer'],
    ['Frontend (React) & CSS', 'frontend-react-css'],
    ['a/b', 'a-b'],
  ])('makes the display name `%s` the safe name %s, with a note', async (written, safe) => {
    const entry = await withName(written);
    expect(entry).toMatchObject({ status: 'ok', name: safe });
    expect(messages(entry.notes)).toContain(`read the display name "${written}" as "${safe}"`);
  });

  it('refuses a file whose name cannot be an agent name when the frontmatter has none', async () => {
    const entry = await loadText('---\ndescription: d\n---\nbody', 'my+agent.md');
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toContain(
      'the file name: "my+agent" is not a valid agent name (it holds "+"); add `name: my-agent` to the frontmatter',
    );
  });
});

describe('size limits', () => {
  it('cuts a description or prompt over 64 KiB, with a warning that says so', async () => {
    const entry = await loadText(
      `---\nname: big\ndescription: ${'d'.repeat(70_000)}\n---\n${'é'.repeat(40_000)}`,
    );
    expect(entry.status).toBe('ok');
    expect(Buffer.byteLength(entry.definition!.description)).toBe(65_536);
    expect(Buffer.byteLength(entry.definition!.prompt)).toBe(65_536);
    expect(entry.definition!.prompt).toMatch(/^é+$/);
    expect(entry.warnings).toEqual([
      {
        line: 3,
        message: expect.stringMatching(
          /^`description` is 70,000 bytes; only its first 64 KiB are used/,
        ),
      },
      { message: expect.stringMatching(/^`prompt` is 80,000 bytes; only its first 64 KiB/) },
    ]);
  });
});

describe('descriptions with example dialogue', () => {
  it('keeps `user:` and `assistant:` lines under a description of several lines in it', async () => {
    const entry = await loadText(
      [
        '---',
        'name: test-writer',
        'description: Use this agent after writing code. Examples:',
        '<example>',
        'Context: The user has just written a function.',
        'user: "I wrote a parser"',
        'assistant: "I will use the test-writer agent"',
        '</example>',
        'tools: Read, Write',
        '---',
        'You write tests.',
      ].join('\n'),
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition!.description).toBe(
      'Use this agent after writing code. Examples: <example> Context: The user has just written a function. user: "I wrote a parser" assistant: "I will use the test-writer agent" </example>',
    );
    expect(entry.definition!.tools).toEqual(['Read', 'Write']);
    expect(entry.definition!.extra).toEqual({});
    expect(messages(entry.warnings)).toContain('kept 3 lines 5, 6, 7 in `description`');
  });

  it('says where a one-line description was cut when the next line starts an unknown key', async () => {
    const entry = await loadText(
      '---\nname: helper\ndescription: Use this agent when asked.\nuser: "help me"\n---\nbody',
    );
    expect(entry.definition!.description).toBe('Use this agent when asked.');
    expect(entry.warnings).toContainEqual({
      line: 4,
      message: expect.stringMatching(/^`description` \(line 3\) ends where line 4 starts `user:`/),
    });
  });
});

describe('diagnostics', () => {
  it('reads CR-only line endings as line endings', async () => {
    const entry = await loadText(
      '---\rname: old-mac\rdescription: d\rmaxTurns: 3\r---\rbody\rmore',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition).toMatchObject({ name: 'old-mac', maxTurns: 3, prompt: 'body\nmore' });
  });

  it('finds a closing line of many dashes and reports it at its own line', async () => {
    const entry = await loadText('---\nname: a\ndescription: d\n----------\nbody');
    expect(entry.status).toBe('ok');
    expect(entry.definition!.prompt).toBe('body');
    expect(entry.warnings).toEqual([
      { line: 4, message: 'the frontmatter is closed by `----------`; write exactly `---`' },
    ]);
  });

  it('puts a missing description at the frontmatter’s first line', async () => {
    const entry = await loadText('\n---\nname: lost\n---\nYou are lost.');
    expect(entry.error).toEqual({
      line: 2,
      message: expect.stringMatching(/^`description` is missing/),
    });
  });

  it('does not warn about dropping a tool the opencode tools map switched off', async () => {
    const entry = await loadText(
      '---\nname: a\ndescription: d\ntools:\n  websearch: false\n  bash: false\n---\nbody',
    );
    expect(entry.definition!.disallowedTools).toEqual(['Bash']);
    expect(entry.warnings).toEqual([]);
    expect(entry.unknownTools).toBeUndefined();
  });
});

describe("the newest peers' fields", () => {
  it("reads Claude Code's `experimental.cacheTtl` and `effort`", async () => {
    const entry = await loadText(
      '---\nname: a\ndescription: d\neffort: high\nexperimental:\n  cacheTtl: 1h\n---\nbody',
    );
    expect(entry.definition).toMatchObject({ effort: 'high', cacheTtl: '1h' });
    expect(entry.definition!.extra).toEqual({});
    expect(entry.warnings).toEqual([]);
  });

  it('refuses a cache lifetime Anthropic does not offer, naming the line', async () => {
    const entry = await loadText(
      '---\nname: a\ndescription: d\nexperimental: { cacheTtl: 2h }\n---\nb',
    );
    expect(entry.definition!.cacheTtl).toBeUndefined();
    expect(entry.warnings).toEqual([
      { line: 4, message: '`experimental` must be `5m` or `1h` (got "2h"); the field is ignored' },
    ]);
  });

  it("reads OpenCode 2's `permissions` list of { action, resource, effect }, the last match winning", async () => {
    const entry = await loadText(
      [
        '---',
        'description: d',
        'permissions:',
        '  - { action: shell, resource: "*", effect: ask }',
        '  - { action: shell, resource: "git status *", effect: allow }',
        '  - { action: edit, resource: "*", effect: deny }',
        '  - { action: subagent, resource: "*", effect: deny }',
        '  - { action: telepathy, resource: "*", effect: deny }',
        '---',
        'body',
      ].join('\n'),
      'reviewer.md',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition!.disallowedTools).toEqual(['Edit', 'Write', 'Agent']);
    expect(entry.definition!.permissionRules).toEqual([
      { behavior: 'ask', rule: 'Bash', except: ['Bash(git status *)'], field: 'permissions[0]' },
    ]);
    expect(messages(entry.warnings)).toContain(
      '`permissions[4]`: warren has no tool for the action "telepathy"; ignored',
    );
  });
});
