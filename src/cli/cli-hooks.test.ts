// `warren -p` with hooks from settings files and structured results from definition files: a
// real process, real files, the scripted model. Runs the built CLI (`npm test` builds first).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeEnv, runWarren } from '../testing/cli-process.js';
import { writeHookScript } from '../testing/hook-scripts.js';
import { useTempDir } from '../testing/temp-dir.js';

const home = useTempDir('warren-home-');
const project = useTempDir('warren-project-');

async function write(relative: string, text: string): Promise<string> {
  const file = join(project(), relative);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return file;
}

async function warren(turns: unknown[], ...extra: string[]) {
  const script = await write('script.json', JSON.stringify({ turns }));
  const run = await runWarren(
    [
      '-p',
      'do the task',
      '--model',
      `scripted:${script}`,
      '--output-format',
      'json',
      '--session-dir',
      join(home(), 'sessions'),
      '--permission-mode',
      'bypassPermissions',
      // The project's hooks run only in a trusted project (cli-project-trust.test.ts).
      '--trust-project',
      ...extra,
    ],
    { cwd: project(), env: homeEnv(home()) },
  );
  return { ...run, json: run.stdout ? JSON.parse(run.stdout) : undefined };
}

const settings = (hooks: unknown) => JSON.stringify({ hooks }, null, 2);

describe('warren -p with hooks in settings files', () => {
  it("runs the project's PreToolUse hook inside a child, where its deny holds under bypassPermissions", async () => {
    const guard = await writeHookScript(
      project(),
      'guard',
      `process.stderr.write('Bash is off limits for ' + input.agent_type); process.exit(2);`,
    );
    await write(
      '.warren/settings.json',
      settings({
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard.command }] }],
      }),
    );
    const run = await warren([
      {
        toolCalls: [{ name: 'Agent', input: { description: 'list', prompt: 'CHILD list files' } }],
      },
      { match: { prompt: 'CHILD' }, toolCalls: [{ name: 'Bash', input: { command: 'ls' } }] },
      { match: { lastToolResult: 'off limits for general-purpose' }, text: 'Bash was refused' },
      { match: { lastToolResult: 'Bash was refused' }, text: 'the child could not list' },
    ]);
    expect(run.code).toBe(0);
    expect(run.json.result).toBe('the child could not list');
    expect(guard.calls().map((call) => [call.depth, call.session_id])).toEqual([
      [1, run.json.session_id],
    ]);
  });

  it('reads --settings after the project file; both run', async () => {
    const project1 = await writeHookScript(project(), 'one', '');
    const extra = await writeHookScript(project(), 'two', '');
    await write(
      '.warren/settings.json',
      settings({ Stop: [{ hooks: [{ type: 'command', command: project1.command }] }] }),
    );
    const file = await write(
      'more-settings.json',
      settings({ Stop: [{ hooks: [{ type: 'command', command: extra.command }] }] }),
    );
    const run = await warren([{ text: 'done' }], '--settings', file);
    expect(run.code).toBe(0);
    expect([project1.calls().length, extra.calls().length]).toEqual([1, 1]);
  });

  it('refuses a bad hook with exit 2, naming file:line:column and the field', async () => {
    const file = await write(
      '.warren/settings.json',
      settings({ PreToolUse: [{ matcher: 'Bash(', hooks: [] }] }),
    );
    const run = await warren([{ text: 'never' }]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `${file}:5:9 hooks\\.PreToolUse\\[0\\]\\.matcher: is not a valid regular expression`,
      ),
    );
  });

  it('warns about Claude Code events warren does not fire, and runs', async () => {
    await write(
      '.warren/settings.json',
      settings({ PreCompact: [{ hooks: [{ type: 'command', command: 'true' }] }] }),
    );
    const run = await warren([{ text: 'done' }]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('PreCompact is a Claude Code event warren does not fire');
  });
});

describe('warren -p with an output schema', () => {
  it("puts a child's checked value in agents[].structured_output and its JSON in the parent's result", async () => {
    await write(
      '.warren/agents/counter.md',
      [
        '---',
        'name: counter',
        'description: Counts files.',
        'outputSchema:',
        '  type: object',
        '  properties:',
        '    count: { type: integer }',
        '  required: [count]',
        '---',
        'Count the files.',
      ].join('\n'),
    );
    const run = await warren([
      {
        toolCalls: [
          {
            name: 'Agent',
            input: { description: 'count', prompt: 'COUNT', subagent_type: 'counter' },
          },
        ],
      },
      {
        match: { prompt: 'COUNT' },
        toolCalls: [{ name: 'StructuredOutput', input: { count: 3 } }],
      },
      { match: { lastToolResult: '{"count":3}' }, text: 'there are 3 files' },
    ]);
    expect(run.code).toBe(0);
    expect(run.json.result).toBe('there are 3 files');
    expect(
      run.json.agents.map((agent: { structured_output: unknown }) => agent.structured_output),
    ).toEqual([null, { count: 3 }]);
  });
});
