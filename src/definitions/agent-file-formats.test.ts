// Codex's TOML agents and Gemini CLI's Markdown agents, read field by field into warren's
// definitions, with what cannot be mapped warned about on its line.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import type { AgentLoadEntry } from './agent-load-entry.js';
import { loadAgentDefinitions } from './load-agent-definitions.js';
import { parseAgentFile } from './load-agent-file.js';

const project = useTempDir('warren-formats-');

const REVIEWER_TOML = `# A Codex custom agent
name = "reviewer"
description = "Reviews a change for correctness and risk."
model = "gpt-5.3-codex"
model_reasoning_effort = "high"
sandbox_mode = "read-only"
nickname_candidates = ["Atlas", "Delta"]
approval_policy = "never"
developer_instructions = """
Review code like an owner.
Lead with concrete findings.
"""

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-server"]
env = { DOCS_TOKEN = "x" }
startup_timeout_sec = 20

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"

[mcp_servers.off]
command = "off"
enabled = false
`;

const codex = (text: string, name = 'reviewer.toml') =>
  parseAgentFile({ path: `/p/.codex/agents/${name}`, kind: 'project', format: 'codex', text });

const gemini = (text: string) =>
  parseAgentFile({ path: '/p/.gemini/agents/auditor.md', kind: 'project', format: 'gemini', text });

const messages = (list: AgentLoadEntry['warnings']) => list.map((d) => [d.line, d.message]);

describe("Codex's TOML agents (.codex/agents/*.toml)", () => {
  it('maps name, description, developer_instructions, model, sandbox_mode and mcp_servers', () => {
    const entry = codex(REVIEWER_TOML);
    expect(entry.status).toBe('ok');
    expect(entry.definition).toMatchObject({
      name: 'reviewer',
      description: 'Reviews a change for correctness and risk.',
      prompt: 'Review code like an owner.\nLead with concrete findings.\n',
      model: 'openai:gpt-5.3-codex',
      readOnly: true,
      mcpServers: [
        { docs: { command: 'npx', args: ['-y', 'docs-server'], env: { DOCS_TOKEN: 'x' } } },
        {
          remote: {
            type: 'http',
            url: 'https://mcp.example.com/mcp',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text, expanded when the server starts.
            headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' },
          },
        },
      ],
      source: { kind: 'project', path: '/p/.codex/agents/reviewer.toml', format: 'codex' },
    });
    // Codex's reasoning effort is warren's `effort`: it reaches the provider.
    expect(entry.definition?.effort).toBe('high');
    expect(entry.definition?.extra).not.toHaveProperty('model_reasoning_effort');
    expect(entry.definition?.extra).toMatchObject({
      nickname_candidates: ['Atlas', 'Delta'],
      approval_policy: 'never',
    });
  });

  it('warns about what it cannot map, each on its line', () => {
    const entry = codex(REVIEWER_TOML);
    expect(messages(entry.warnings)).toEqual([
      [
        8,
        '`approval_policy` is ignored: what is asked is decided by the session (--permission-mode, --allowed-tools, settings), or `permissionMode` in a definition',
      ],
      [
        14,
        "`mcp_servers.docs`: `startup_timeout_sec` ignored (warren's server timeouts are MCP_TIMEOUT and MCP_TOOL_TIMEOUT; its tool lists are the agent's `tools`)",
      ],
    ]);
    expect(messages(entry.notes)).toEqual(
      expect.arrayContaining([
        [5, 'read `model_reasoning_effort` as `effort`'],
        [
          6,
          'read `sandbox_mode = "read-only"` as a read-only agent: no Write or Edit, and Bash only for read-only commands',
        ],
        [14, '`mcp_servers.off` has `enabled = false`; left out'],
        [4, '`model`: read `gpt-5.3-codex` as `openai:gpt-5.3-codex`'],
      ]),
    );
  });

  it('refuses to widen permissions with danger-full-access, and names Codex settings it lacks', () => {
    const entry = codex(
      'name = "x"\ndescription = "d"\ndeveloper_instructions = "i"\nsandbox_mode = "danger-full-access"\nmodel_provider = "azure"\nshell_environment_policy = { inherit = "all" }\n',
    );
    expect(entry.definition?.readOnly).toBeUndefined();
    expect(messages(entry.warnings)).toEqual([
      [
        4,
        '`sandbox_mode = "danger-full-access"` is not granted: a definition file never widens permissions, so the session\'s permission mode applies',
      ],
      [5, '`model_provider` is ignored: write the provider in `model` as `provider:model`'],
      [6, '`shell_environment_policy` is a Codex setting warren has no equivalent for; ignored'],
    ]);
  });

  it("accepts warren's own fields in TOML", () => {
    const entry = codex(
      'description = "d"\ndeveloper_instructions = "i"\nmaxTurns = 7\nskills = ["testing"]\nmemory = "project"\n',
    );
    expect(entry.definition).toMatchObject({
      name: 'reviewer',
      maxTurns: 7,
      skills: ['testing'],
      memory: 'project',
    });
  });

  it('is an error entry naming the line and column of a TOML syntax error', () => {
    const entry = codex('name = "x"\ndescription = "d"\ndeveloper_instructions = \n');
    expect(entry.status).toBe('error');
    expect(entry.error).toEqual({
      line: 3,
      message: expect.stringMatching(
        /^the file is not valid TOML \(.+, column \d+\): fix the syntax/,
      ),
    });
  });

  it('is an error entry when description or developer_instructions is missing', () => {
    expect(codex('name = "x"\n').error).toEqual({
      line: 1,
      message:
        '`description` is missing: add `description = "<when the parent should use this agent>"`; `developer_instructions` is missing: add `developer_instructions = """<the agent\'s instructions>"""`',
    });
  });

  it("lists the tools warren lacks in a warren `tools` list, for the run's one warning per tool", () => {
    const entry = codex(
      'description = "d"\ndeveloper_instructions = "i"\ntools = ["Read", "WebSearch"]\n',
    );
    expect(entry.definition?.tools).toEqual(['Read']);
    expect(entry.unknownTools).toEqual(['WebSearch']);
  });

  it('validates the name like any agent name', () => {
    const entry = codex('name = "../x"\ndescription = "d"\ndeveloper_instructions = "i"\n');
    expect(entry.status).toBe('error');
    expect(entry.error).toMatchObject({ line: 1, message: expect.stringContaining('"../x"') });
  });
});

describe("Gemini CLI's agents (.gemini/agents/*.md)", () => {
  const auditor = [
    '---',
    'name: security-auditor',
    'description: Finds security problems.',
    'kind: local',
    'tools:',
    '  - read_file',
    '  - grep_search',
    '  - run_shell_command',
    '  - mcp_docs_*',
    'model: gemini-3-flash-preview',
    'temperature: 0.2',
    'max_turns: 10',
    'timeout_mins: 5',
    '---',
    'You are a ruthless security auditor.',
  ].join('\n');

  it("maps Gemini's tool names, max_turns and timeout_mins", () => {
    const entry = gemini(auditor);
    expect(entry.status).toBe('ok');
    expect(entry.definition).toMatchObject({
      name: 'security-auditor',
      prompt: 'You are a ruthless security auditor.',
      tools: ['Read', 'Grep', 'Bash', 'mcp__docs__*'],
      maxTurns: 10,
      timeBudgetMs: 300_000,
      source: { format: 'gemini' },
    });
    expect(entry.definition?.model).toBeUndefined();
    expect(entry.definition?.temperature).toBe(0.2);
    expect(entry.definition?.extra).toMatchObject({
      kind: 'local',
      model: 'gemini-3-flash-preview',
    });
  });

  it("maps Gemini's web_fetch and write_todos to WebFetch and TodoWrite", () => {
    const entry = gemini(
      '---\nname: researcher\ndescription: Reads the web.\ntools: [web_fetch, write_todos]\n---\nR.',
    );
    expect(entry.definition?.tools).toEqual(['WebFetch', 'TodoWrite']);
    expect(entry.unknownTools).toBeUndefined();
  });

  it('warns that a Gemini model cannot run here, on its line', () => {
    expect(messages(gemini(auditor).warnings)).toEqual([
      [
        10,
        "`model`: warren has no Gemini provider, so `gemini-3-flash-preview` cannot run here; the agent uses its parent's model (write `model: provider:model` to choose one)",
      ],
    ]);
  });

  it('reads a remote (A2A) agent: its card, its auth, a description when it has none', () => {
    const entry = gemini(
      '---\nname: remote-one\nkind: remote\nagent_card_url: https://x.example/card\nauth:\n  type: apiKey\n  key: $KEY\n---\n',
    );
    expect(entry.status).toBe('ok');
    expect(entry.definition?.remote).toEqual({
      cardUrl: 'https://x.example/card',
      auth: { type: 'apiKey', key: '$KEY' },
    });
    expect(entry.definition?.description).toBe(
      'A remote agent reached over A2A (card at https://x.example/card).',
    );
    expect(entry.warnings).toEqual([]);
  });

  it('refuses a remote agent with no card, or auth that runs a command, naming the line', () => {
    expect(gemini('---\nname: r\nkind: remote\n---\n').error).toEqual({
      line: 3,
      message: '`kind: remote` needs one of `agent_card_url` or `agent_card_json`',
    });
    const command = gemini(
      '---\nname: r\nkind: remote\nagent_card_url: https://x\nauth:\n  type: http\n  scheme: Bearer\n  token: "!cat ~/.secret"\n---\n',
    );
    expect(command.error).toEqual({
      line: 5,
      message: '`auth` values run as `!command` are not supported by warren; use `$ENV_VAR`',
    });
  });
});

describe('loadAgentDefinitions with every format', () => {
  it('reads .codex/agents/*.toml and .gemini/agents/*.md, recording the format of each', async () => {
    const dir = project();
    await mkdir(path.join(dir, '.codex/agents'), { recursive: true });
    await mkdir(path.join(dir, '.gemini/agents'), { recursive: true });
    await mkdir(path.join(dir, '.claude/agents'), { recursive: true });
    await writeFile(path.join(dir, '.codex/agents/reviewer.toml'), REVIEWER_TOML);
    await writeFile(path.join(dir, '.codex/agents/notes.md'), '# not an agent');
    await writeFile(path.join(dir, '.codex/agents/broken.toml'), 'name = "broken\n');
    await writeFile(
      path.join(dir, '.gemini/agents/auditor.md'),
      '---\nname: auditor\ndescription: Audits.\n---\nAudit.',
    );
    await writeFile(
      path.join(dir, '.claude/agents/helper.md'),
      '---\nname: helper\ndescription: Helps.\n---\nHelp.',
    );
    const { entries, definitions } = await loadAgentDefinitions({ cwd: dir, homeDir: dir });
    const formats = entries
      .filter((entry) => entry.source.kind === 'project')
      .map((entry) => [entry.name, entry.source.format, entry.status]);
    expect(formats).toEqual([
      ['helper', 'claude-code', 'ok'],
      ['broken', 'codex', 'error'],
      ['reviewer', 'codex', 'ok'],
      ['auditor', 'gemini', 'ok'],
    ]);
    expect(definitions.get('reviewer')?.readOnly).toBe(true);
  });
});
