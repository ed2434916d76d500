// The project's context as a person meets it from the command line: AGENTS.md and skills in the
// main agent's prompt, problems with them on stderr, `--continue`, and every agent-file format
// in `warren agents --json`. Runs the built CLI (`npm test` builds first).
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';

const cli = useCliSandbox();
const { home, project, sessions, chatRequests, run: warren } = cli;

const against = (...extra: string[]) => cli.againstServer('--output-format', 'json', ...extra);

async function write(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    const file = join(project(), name);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, text);
  }
}

/** The system message of the n-th model call. */
function systemPrompt(index: number): string {
  const body = chatRequests()[index]?.body as {
    messages: Array<{ role: string; content: string }>;
  };
  return body.messages.find((message) => message.role === 'system')?.content ?? '';
}

describe('warren -p in a project with instructions and skills', () => {
  it('puts AGENTS.md and the skills list into the main prompt, before the environment', async () => {
    await mkdir(join(project(), '.git'));
    await write({
      'AGENTS.md': 'Use pnpm, never npm. See @docs/style.md and @../outside.md',
      'docs/style.md': 'Two-space indentation.',
      '.warren/skills/deploy/SKILL.md':
        '---\nname: deploy\ndescription: Deploys to staging.\n---\nRun make deploy.',
    });
    cli.server.enqueue({ text: 'ok' });
    const run = await warren(['-p', 'hello', ...against()]);
    expect(run.code).toBe(0);
    const system = systemPrompt(0);
    expect(system).toContain('<instructions file="AGENTS.md">\nUse pnpm, never npm.');
    expect(system).toContain(
      '<instructions file="docs/style.md" imported-by="AGENTS.md:1">\nTwo-space indentation.',
    );
    expect(system).toContain('- deploy: Deploys to staging.');
    expect(system.indexOf('# Skills')).toBeLessThan(system.indexOf('Environment:'));
    expect(run.stderr).toMatch(
      /^warren: warning: AGENTS\.md:1: @\.\.\/outside\.md not read: it is outside /m,
    );
  });
});

describe('warren -p --continue', () => {
  it('continues the latest session of this directory', async () => {
    const other = join(home(), 'elsewhere');
    await mkdir(other);
    cli.server.enqueue({ text: 'first' }, { text: 'second' }, { text: 'other' }, { text: 'again' });
    const first = JSON.parse((await warren(['-p', 'one', ...against()])).stdout).session_id;
    const second = JSON.parse((await warren(['-p', 'two', ...against()])).stdout).session_id;
    await warren(['-p', 'three', ...against()], other);
    // The first session was written last: it is the latest, though it started first.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(sessions(), `${first}.jsonl`), later, later);

    const run = await warren(['-p', 'four', ...against('--continue')]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).session_id).toBe(first);
    expect(second).not.toBe(first);
    expect(JSON.stringify(chatRequests()[3]?.body)).toContain('one');
  });

  it('exits 2 naming the directory when it has no session', async () => {
    const run = await warren(['-p', 'x', ...against('--continue')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `warren: --continue: no session of ${project()} in ${sessions()} (start one with warren -p "<prompt>" in this directory, pass --session-dir if its sessions are kept elsewhere, or --resume <session-id> to continue one from another directory)\n`,
    );
  });

  it('cannot be combined with --resume', async () => {
    const run = await warren(['-p', 'x', '--continue', '--resume', 'abc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^warren: --continue: cannot be used with --resume/);
  });
});

describe('warren agents --json with every agent-file format', () => {
  it('lists each with its format and its fields mapped', async () => {
    await write({
      '.warren/agents/w.md': '---\nname: w\ndescription: Warren.\ntools: Read\n---\nW.',
      '.claude/agents/c.md':
        '---\nname: c\ndescription: Claude.\ntools: Read, Grep\nmodel: haiku\n---\nC.',
      '.opencode/agent/o.md':
        '---\ndescription: Opencode.\nmodel: openai/gpt-5\ntools:\n  write: false\n---\nO.',
      '.codex/agents/x.toml':
        'name = "x"\ndescription = "Codex."\nmodel = "gpt-5.3-codex"\nsandbox_mode = "read-only"\ndeveloper_instructions = "X."\n',
      '.gemini/agents/g.md':
        '---\nname: g\ndescription: Gemini.\ntools: [read_file, run_shell_command]\nmax_turns: 4\n---\nG.',
    });
    const run = await warren(['agents', '--json']);
    expect(run.code).toBe(0);
    const agents = JSON.parse(run.stdout).agents as Array<Record<string, unknown>>;
    const pick = (name: string) => {
      const agent = agents.find((entry) => entry.name === name)!;
      return [agent.format, agent.description, agent.model, agent.tools, agent.disallowedTools];
    };
    expect(pick('w')).toEqual(['warren', 'Warren.', 'inherit', ['Read'], []]);
    expect(pick('c')).toEqual(['claude-code', 'Claude.', 'haiku', ['Read', 'Grep'], []]);
    expect(pick('o')).toEqual(['opencode', 'Opencode.', 'openai:gpt-5', null, ['Write']]);
    expect(pick('x')).toEqual(['codex', 'Codex.', 'openai:gpt-5.3-codex', null, []]);
    expect(pick('g')).toEqual(['gemini', 'Gemini.', 'inherit', ['Read', 'Bash'], []]);
    expect(agents.find((entry) => entry.name === 'general-purpose')?.format).toBeNull();

    const text = await warren(['agents']);
    expect(text.stdout).toMatch(
      /^x\s+project \.codex\/agents\/x\.toml\s+codex\s+openai:gpt-5\.3-codex\s+all\s+read-only\s+yes\s+0\s+ok$/m,
    );
  });
});
