import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/cli-process.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';
import { aliasFanOutDefinition } from '../testing/hostile/hostile-definitions.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS = resolve(ROOT, '../shared/corpus/agents');

const cli = useCliSandbox();
const { project, sessions, chatRequests, againstServer: against, run: warren } = cli;

const toolNames = (index: number) =>
  (
    (chatRequests()[index]!.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []
  ).map((tool) => tool.function.name);

describe('warren -p with sub-agents', () => {
  /** The stream-json lines of a run asking where the notes are. */
  async function streamedLines() {
    const prompt = 'where are the notes?';
    return jsonLines(
      (await warren(['-p', prompt, ...against('--output-format', 'stream-json')])).stdout,
    );
  }

  beforeEach(() => {
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'Agent', input: { description: 'find notes', prompt: 'Find the notes file.' } },
        ],
      },
      { text: 'The notes are in notes.txt.' },
      { text: 'A child found notes.txt.' },
    );
  });

  it('streams the child as agent_start and agent_end lines tagged with its parent and depth', async () => {
    const lines = await streamedLines();
    const init = lines[0];
    const start = lines.find((line) => line.type === 'agent_start');
    const end = lines.find((line) => line.type === 'agent_end');
    expect(start).toMatchObject({
      parent_id: init.agent_id,
      depth: 1,
      agent_type: 'general-purpose',
    });
    expect(end).toMatchObject({
      agent_id: start.agent_id,
      status: 'completed',
      result: 'The notes are in notes.txt.',
    });
    const childAssistant = lines.find((line) => line.type === 'assistant' && line.depth === 1);
    expect(childAssistant.agent_id).toBe(start.agent_id);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'A child found notes.txt.' });
  });

  it('streams text deltas of every agent, each tagged with its agent, parent and depth', async () => {
    const lines = await streamedLines();
    const [init] = lines;
    const start = lines.find((line) => line.type === 'agent_start');
    const deltas = lines.filter((line) => line.type === 'assistant_delta');
    const textOf = (depth: number) =>
      deltas
        .filter((line) => line.depth === depth)
        .map((line) => line.text)
        .join('');
    expect(textOf(1)).toBe('The notes are in notes.txt.');
    expect(textOf(0)).toBe('A child found notes.txt.');
    for (const delta of deltas) {
      expect(Object.keys(delta)).toEqual(['type', 'agent_id', 'parent_id', 'depth', 'text']);
      expect(delta).toMatchObject(
        delta.depth === 0
          ? { agent_id: init.agent_id, parent_id: null }
          : { agent_id: start.agent_id, parent_id: init.agent_id },
      );
    }
    // Each delta comes before the whole message it is part of.
    const childDone = lines.findIndex((line) => line.type === 'assistant' && line.depth === 1);
    expect(lines.findIndex((line) => line.type === 'assistant_delta')).toBeLessThan(childDone);
  });

  it('prints only the main agent’s text in text mode, never a sub-agent’s', async () => {
    const run = await warren(['-p', 'where are the notes?', ...against()]);
    expect(run).toMatchObject({ code: 0, stdout: 'A child found notes.txt.\n', stderr: '' });
  });

  it('reports the whole tree in the JSON result, each agent with its own transcript', async () => {
    const run = await warren(['-p', 'where are the notes?', ...against('--output-format', 'json')]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.agents).toHaveLength(2);
    const [main, child] = result.agents;
    expect(main).toMatchObject({ agent_type: 'main', depth: 0, parent_id: null, tool_calls: 1 });
    expect(child).toMatchObject({
      agent_type: 'general-purpose',
      description: 'find notes',
      depth: 1,
      parent_id: main.agent_id,
      status: 'completed',
      num_turns: 1,
    });
    expect(child.transcript).toBe(
      join(sessions(), result.session_id, 'agents', `${child.agent_id}.jsonl`),
    );
    expect(await readFile(child.transcript, 'utf8')).toContain('The notes are in notes.txt.');
    const totalOutput = result.usage.output_tokens;
    expect(totalOutput).toBe(main.usage.output_tokens + child.usage.output_tokens);
  });
});

describe('definition files', () => {
  it('runs the main agent as a project definition with --agent, with only its tools', async () => {
    await mkdir(join(project(), '.claude/agents'), { recursive: true });
    await writeFile(
      join(project(), '.claude/agents/reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nYou are REVIEWER-PROMPT.\n',
    );
    cli.server.enqueue({ text: 'Looks fine.' });
    const run = await warren([
      '-p',
      'review',
      ...against('--agent', 'reviewer', '--output-format', 'json'),
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).agents[0]).toMatchObject({ agent_type: 'reviewer' });
    expect(JSON.stringify(chatRequests()[0]?.body)).toContain('REVIEWER-PROMPT');
    expect(toolNames(0).sort()).toEqual(['Grep', 'Read']);
  });

  it('offers no Agent tool with --max-depth 0', async () => {
    cli.server.enqueue({ text: 'ok' });
    await warren(['-p', 'hi', ...against('--max-depth', '0')]);
    expect(toolNames(0)).not.toContain('Agent');
  });

  it("honours an opencode definition's `permission` block: tools switched off, commands denied by pattern", async () => {
    await mkdir(join(project(), '.opencode/agents'), { recursive: true });
    const file = join(project(), '.opencode/agents/Echoer.md');
    await writeFile(
      file,
      '---\ndescription: Echoes\npermission:\n  edit: deny\n  bash:\n    "*": deny\n    "echo *": allow\n---\nYou echo.\n',
    );
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'Bash', input: { command: 'echo hi' } },
          { name: 'Bash', input: { command: 'rm -rf src' } },
        ],
      },
      { text: 'Echoed; removing was denied.' },
    );
    const run = await warren([
      '-p',
      'echo',
      ...against('--agent', 'Echoer', '--permission-mode', 'bypassPermissions'),
      '--output-format',
      'stream-json',
    ]);
    expect(run.code).toBe(0);
    expect(toolNames(0)).toContain('Bash');
    expect(toolNames(0)).not.toContain('Edit');
    expect(toolNames(0)).not.toContain('Write');
    const results = jsonLines(run.stdout).filter((line) => line.type === 'tool_result');
    expect(results.map((result) => [result.is_error, result.content.trim()])).toEqual([
      [false, 'hi'],
      [
        true,
        `Permission to use Bash(rm -rf src) is denied by the rule "Bash" from ${file} permission.bash. Do not try to get around it: do without it, or report that it is not allowed.`,
      ],
    ]);
  });

  it('runs with the other definitions, and names the broken one, when a file is a YAML alias bomb', async () => {
    await mkdir(join(project(), '.claude/agents'), { recursive: true });
    await writeFile(join(project(), '.claude/agents/bomb.md'), aliasFanOutDefinition());
    await writeFile(
      join(project(), '.claude/agents/reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews code\n---\nYou review.\n',
    );
    cli.server.enqueue({ text: 'Reviewed.' });
    const run = await warren(['-p', 'review', ...against('--agent', 'reviewer')]);
    expect(run).toMatchObject({ code: 0, stdout: 'Reviewed.\n' });
    expect(run.stderr).toMatch(
      /^warren: skipped agent definition \S+\/\.claude\/agents\/bomb\.md:5: the frontmatter's YAML cannot be expanded/,
    );
    expect(run.stderr).not.toContain('internal error');
  });

  it('names the valid agents when --agent names none of them', async () => {
    const run = await warren(['-p', 'x', ...against('--agent', 'nobody')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^warren: --agent nobody: no such agent \(use one of: .*general-purpose/,
    );
  });
});

describe('warren -p with definitions that name tools warren lacks', () => {
  it('warns once per missing tool for the run, however many files name it', async () => {
    await mkdir(join(project(), '.warren/agents'), { recursive: true });
    for (const name of ['researcher', 'writer', 'scout']) {
      await writeFile(
        join(project(), `.warren/agents/${name}.md`),
        `---\ndescription: ${name}\ntools: Read, WebSearch, TodoWrite\n---\nWork.\n`,
      );
    }
    cli.server.enqueue({ text: 'ok' });
    const run = await warren(['-p', 'hi', ...against('--output-format', 'stream-json')]);
    expect(run.code).toBe(0);
    const stderr = run.stderr.trim().split('\n');
    expect(stderr).toEqual([
      expect.stringMatching(
        /^warren: warning: warren has no tool `WebSearch`: 3 agents list it \(researcher, scout, writer\) and run without it\./,
      ),
    ]);
    const warnings = jsonLines(run.stdout).filter((line) => line.subtype === 'warning');
    expect(warnings).toHaveLength(1);
  });
});

describe('warren agents', () => {
  it('lists definitions with their source and the warnings of a messy file', async () => {
    await mkdir(join(project(), '.warren/agents'), { recursive: true });
    await writeFile(
      join(project(), '.warren/agents/helper.md'),
      '---\ndescription: Use when: things break\ntools: Read, WebSearch\n---\nHelp.\n',
    );
    const run = await warren(['agents', '--json']);
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout);
    const helper = listing.agents.find((agent: { name: string }) => agent.name === 'helper');
    expect(helper).toMatchObject({ status: 'ok', tools: ['Read'], source: { kind: 'project' } });
    expect(JSON.stringify(helper.notes)).toMatch(/dropped `WebSearch`/);
    expect(listing.toolWarnings).toEqual([expect.stringContaining('no tool `WebSearch`')]);
    const text = await warren(['agents']);
    expect(text.stdout).toMatch(/helper\s+project \.warren\/agents\/helper\.md/);
    expect(text.stdout).toMatch(/warren has no tool `WebSearch`: agent helper lists it/);
  });

  it('exits 1 when a file cannot be used, and still lists everything with file:line', async () => {
    await mkdir(join(project(), '.claude/agents'), { recursive: true });
    await writeFile(join(project(), '.claude/agents/bomb.md'), aliasFanOutDefinition());
    await writeFile(join(project(), '.claude/agents/nameless.md'), '---\nname: ../up\n---\nx\n');
    const text = await warren(['agents']);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(
      /^bomb\s+project \.claude\/agents\/bomb\.md\s+claude-code\s+-\s+-\s+-\s+yes\s+0\s+error$/m,
    );
    expect(text.stdout).toMatch(/^general-purpose\s+built-in/m);
    expect(text.stdout).toContain('.claude/agents/bomb.md:5: the frontmatter');
    expect(text.stdout).toContain(
      '.claude/agents/nameless.md:2: `name`: "../up" is not a valid agent name',
    );
    expect(text.stdout).toMatch(/3 agents in use, 0 overridden, 2 errors/);
    const json = await warren(['agents', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).errors).toBe(2);
  });

  it('shows control and direction characters from a file escaped, never raw', async () => {
    await mkdir(join(project(), '.claude/agents'), { recursive: true });
    await writeFile(
      join(project(), '.claude/agents/evil.md'),
      '---\nname: "\\e[2Jx\\u202Eyz"\ndescription: d\n---\nx\n',
    );
    const run = await warren(['agents']);
    for (const raw of ['\u001b', '\u202e']) expect(run.stdout).not.toContain(raw);
    expect(run.stdout).toContain('\\u{1b}');
  });

  it.skipIf(!existsSync(CORPUS))(
    'loads every file of the shared corpus without a crash (skipped without ../shared)',
    async () => {
      const run = await warren(['agents', '--json', '--agents-dir', CORPUS]);
      // The corpus's SOURCES.md is no agent: exit 1 says a file could not be used.
      expect(run.code).toBe(1);
      const listing = JSON.parse(run.stdout);
      const corpusEntries = listing.agents.filter(
        (agent: { source: { path?: string } }) =>
          agent.source.path?.startsWith(CORPUS) && !agent.source.path.endsWith('SOURCES.md'),
      );
      expect(corpusEntries).toHaveLength(976);
      expect(corpusEntries.filter((agent: { status: string }) => agent.status === 'error')).toEqual(
        [],
      );
    },
  );
});
