// The `warren` command as a person runs it: a real process, real files, a loopback model server.
// Runs the built CLI (`npm test` builds first).
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, jsonLines, runWarren, WARREN_BIN } from '../testing/cli-process.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';
import { startMockLlmServer } from '../testing/mock-llm/server.js';

const cli = useCliSandbox();
const { home, project, sessions, chatRequests } = cli;

beforeEach(async () => {
  await writeFile(join(project(), 'notes.txt'), 'the answer is 42\n');
});

function warren(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
): Promise<CliRun> {
  return runWarren(args, { ...options, env: { ...cli.env(), ...options.env } });
}

/** Flags for a run against the loopback server in the scratch project. */
const against = (...extra: string[]) => cli.againstServer('--cwd', project(), ...extra);

describe('warren -p', () => {
  it('completes a tool-using task and prints the JSON result of the contract', async () => {
    cli.server.enqueue(
      {
        text: 'Reading the notes.',
        toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }],
      },
      { text: 'The notes say the answer is 42.', usage: { input: 300, output: 12 } },
    );
    const run = await warren([
      '-p',
      'What do the notes say?',
      ...against('--output-format', 'json'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toEqual({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'The notes say the answer is 42.',
      session_id: expect.any(String),
      num_turns: 2,
      duration_ms: expect.any(Number),
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      },
      total_cost_usd: null,
      agents: [
        {
          agent_id: expect.any(String),
          parent_id: null,
          agent_type: 'main',
          description: '',
          depth: 0,
          status: 'completed',
          background: false,
          task_id: null,
          num_turns: 2,
          tool_calls: 1,
          usage: expect.objectContaining({ output_tokens: expect.any(Number) }),
          cache_hit_ratio: 0,
          cost_usd: null,
          // A lone agent's subtree is itself.
          subtree_usage: result.agents[0].usage,
          subtree_cost_usd: null,
          duration_ms: expect.any(Number),
          worktree: null,
          structured_output: null,
          transcript: join(sessions(), `${result.session_id}.jsonl`),
          todos: null,
        },
      ],
    });
    const toolMessage = (
      chatRequests()[1]!.body as { messages: Array<{ role: string; content: string }> }
    ).messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toContain('the answer is 42');
    // Each request says which agent asks, for proxies and gateways between warren and the model.
    expect(chatRequests()[0]?.headers['x-warren-agent-id']).toBe(result.agents[0].agent_id);
    expect(chatRequests()[0]?.headers['x-warren-agent-path']).toBe('main');
  });

  it('prints only the final text in text format, and reads the prompt from stdin', async () => {
    cli.server.enqueue({ text: 'Hello from the model.' });
    const run = await warren(['-p', ...against()], { stdin: 'say hello\n' });
    expect(run).toMatchObject({ code: 0, stdout: 'Hello from the model.\n', stderr: '' });
    expect(JSON.stringify(chatRequests()[0]?.body)).toContain('say hello');
  });

  it('streams the main agent’s text to stdout as it arrives, each reply a paragraph', async () => {
    cli.server.enqueue(
      { text: 'Looking at the files.', toolCalls: [{ name: 'Glob', input: { pattern: '*' } }] },
      { text: 'never finished', delayMs: 60_000 },
    );
    const child = spawn(process.execPath, [WARREN_BIN, '-p', 'go', ...against()], {
      env: { PATH: process.env.PATH, HOME: home() },
    });
    let stdout = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve();
      });
    });
    // The run is still waiting for its second reply, and the first is on screen.
    expect(child.exitCode).toBeNull();
    expect(stdout).toBe('Looking at the files.\n');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
  });

  it('separates the main agent’s replies by a blank line and ends with the final one', async () => {
    cli.server.enqueue(
      {
        text: 'Reading the notes.',
        toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }],
      },
      { text: 'The answer is 42.' },
    );
    const run = await warren(['-p', 'what is the answer?', ...against()]);
    expect(run).toMatchObject({
      code: 0,
      stdout: 'Reading the notes.\n\nThe answer is 42.\n',
      stderr: '',
    });
  });

  it('streams one JSON object per event and ends with the result', async () => {
    cli.server.enqueue(
      { toolCalls: [{ name: 'Glob', input: { pattern: '*.txt' } }] },
      { text: 'One text file.' },
    );
    const run = await warren(['-p', 'list', ...against('--output-format', 'stream-json')]);
    const lines = jsonLines(run.stdout);
    expect(lines.map((line) => line.type)).toEqual([
      'system',
      'assistant',
      'tool_result',
      'assistant_delta',
      'assistant_delta',
      'assistant_delta',
      'assistant',
      'result',
    ]);
    expect(lines[3]).toMatchObject({ parent_id: null, depth: 0, text: 'One ' });
    expect(lines[0]).toMatchObject({ subtype: 'init', model: 'openai-compatible:test-model' });
    expect(lines[2]).toMatchObject({ tool_name: 'Glob', is_error: false, content: 'notes.txt' });
    for (const line of lines.slice(0, -1)) expect(line.agent_id).toBe(lines[0].agent_id);
  });

  it("shows an agent's task list: a stream-json line when it changes, the latest in agents[]", async () => {
    const todos = [
      { content: 'Read the notes', status: 'completed' },
      { content: 'Answer', status: 'in_progress', activeForm: 'Answering' },
    ];
    cli.server.enqueue(
      {
        toolCalls: [
          {
            name: 'TodoWrite',
            input: { todos: [{ content: 'Read the notes', status: 'in_progress' }] },
          },
        ],
      },
      { toolCalls: [{ name: 'TodoWrite', input: { todos } }] },
      { text: 'Done.' },
    );
    const run = await warren(['-p', 'plan', ...against('--output-format', 'stream-json')]);
    const lines = jsonLines(run.stdout);
    const changes = lines.filter((line) => line.type === 'todos');
    expect(changes).toEqual([
      {
        type: 'todos',
        agent_id: lines[0].agent_id,
        parent_id: null,
        depth: 0,
        todos: [{ content: 'Read the notes', status: 'in_progress' }],
      },
      { type: 'todos', agent_id: lines[0].agent_id, parent_id: null, depth: 0, todos },
    ]);
    // Each list follows the tool_result of the call that wrote it.
    expect(lines[lines.indexOf(changes[0]) - 1]).toMatchObject({
      type: 'tool_result',
      tool_name: 'TodoWrite',
    });
    expect(lines.at(-1).agents[0].todos).toEqual(todos);
  });

  it('reports cache reads and writes per agent, with the share read from the cache', async () => {
    cli.server.enqueue({
      text: 'Cached.',
      usage: { input: 100, output: 5, cacheRead: 800, cacheWrite: 100 },
    });
    const run = await warren(
      [
        '-p',
        'hi',
        '--model',
        'anthropic:claude-sonnet-4-5',
        '--cwd',
        project(),
        '--session-dir',
        sessions(),
        '--output-format',
        'json',
      ],
      { env: { ANTHROPIC_BASE_URL: cli.server.url, ANTHROPIC_API_KEY: 'test-key' } },
    );
    expect(run.code).toBe(0);
    const [main] = JSON.parse(run.stdout).agents;
    expect(main.usage).toMatchObject({
      cache_read_input_tokens: 800,
      cache_creation_input_tokens: 100,
    });
    expect(main.cache_hit_ratio).toBe(0.8);
  });

  it('exits 1 with error_max_turns when the turn cap ends the run', async () => {
    const loop = { toolCalls: [{ name: 'Glob', input: { pattern: '*' } }] };
    cli.server.enqueue(loop, { text: 'Out of turns; I listed files once.' });
    const run = await warren([
      '-p',
      'loop',
      ...against('--max-turns', '1', '--output-format', 'json'),
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      result: 'Out of turns; I listed files once.',
      num_turns: 2,
    });
  });

  describe('permissions', () => {
    const writeCall = {
      toolCalls: [{ name: 'Write', input: { file_path: 'out.txt', content: 'hi' } }],
    };

    it('denies a call that needs a prompt, naming the flag that allows it', async () => {
      cli.server.enqueue(writeCall, { text: 'I could not write.' });
      const run = await warren(['-p', 'write', ...against('--output-format', 'stream-json')]);
      const denied = run.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.type === 'tool_result');
      expect(denied.is_error).toBe(true);
      expect(denied.content).toMatch(/--allowed-tools "Write\(\.\/out\.txt\)"/);
      expect(denied.content).toMatch(/--permission-mode acceptEdits/);
      await expect(readFile(join(project(), 'out.txt'))).rejects.toThrow();
    });

    it('in text mode, prints each denial on stderr with the fix, and a summary at the end', async () => {
      cli.server.enqueue(writeCall, writeCall, { text: 'I could not write.' });
      const run = await warren(['-p', 'write', ...against()]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('I could not write.\n');
      const denial =
        'warren: denied: Permission to use Write(out.txt) was not granted. To allow it, rerun with --allowed-tools "Write(./out.txt)", or --permission-mode acceptEdits|bypassPermissions.';
      expect(run.stderr.split('\n')).toEqual([
        denial,
        denial,
        'warren: 2 tool calls were denied, so the result may be incomplete; the lines above say how to allow them',
        '',
      ]);
    });

    it('names the rule that denied a call and the sub-agent it was denied to', async () => {
      cli.server.enqueue(
        {
          toolCalls: [{ name: 'Agent', input: { description: 'write', prompt: 'Write out.txt' } }],
        },
        writeCall,
        { text: 'The child could not write.' },
        { text: 'Nothing was written.' },
      );
      const run = await warren([
        '-p',
        'write',
        ...against('--permission-mode', 'bypassPermissions', '--disallowed-tools', 'Write'),
      ]);
      expect(run.stderr).toBe(
        'warren: denied (general-purpose): Write(out.txt) was denied by the rule "Write" from --disallowed-tools; to allow it, remove that rule.\n' +
          'warren: 1 tool call was denied, so the result may be incomplete; the lines above say how to allow them\n',
      );
    });

    it('allows it with --allowed-tools', async () => {
      cli.server.enqueue(writeCall, { text: 'Written.' });
      const run = await warren(['-p', 'write', ...against('--allowed-tools', 'Write(*.txt)')]);
      expect(run.code).toBe(0);
      expect(await readFile(join(project(), 'out.txt'), 'utf8')).toBe('hi');
    });

    it('reads allow and deny rules from .warren/settings.json; deny wins over the mode', async () => {
      await mkdir(join(project(), '.warren'));
      await writeFile(
        join(project(), '.warren/settings.json'),
        JSON.stringify({ permissions: { deny: ['Write(out.txt)'] } }),
      );
      cli.server.enqueue(writeCall, { text: 'Denied.' });
      const run = await warren([
        '-p',
        'write',
        ...against('--permission-mode', 'bypassPermissions', '--output-format', 'stream-json'),
      ]);
      expect(run.stdout).toContain('"is_error":true');
      await expect(readFile(join(project(), 'out.txt'))).rejects.toThrow();
    });
  });

  describe('transcripts', () => {
    it('writes the session as JSONL and continues it with --resume', async () => {
      cli.server.enqueue({ text: 'Noted: the code word is heron.' });
      const first = await warren([
        '-p',
        'The code word is heron.',
        ...against('--output-format', 'json'),
      ]);
      const { session_id: sessionId } = JSON.parse(first.stdout);
      const file = join(sessions(), `${sessionId}.jsonl`);
      const records = jsonLines(await readFile(file, 'utf8'));
      expect(
        records.filter((record) => record.type === 'message').map((record) => record.message.role),
      ).toEqual(['system', 'user', 'assistant']);

      cli.server.enqueue({ text: 'It was heron.' });
      const second = await warren([
        '-p',
        'What was the code word?',
        ...against('--resume', sessionId, '--output-format', 'json'),
      ]);
      expect(JSON.parse(second.stdout)).toMatchObject({
        session_id: sessionId,
        result: 'It was heron.',
      });
      const resumedRequest = JSON.stringify(chatRequests()[1]?.body);
      expect(resumedRequest).toContain('The code word is heron.');
      expect(resumedRequest).toContain('Noted: the code word is heron.');
    });

    it('goes on with the model and server a session ran with: --resume and --continue need no --model', async () => {
      cli.server.enqueue({ text: 'Noted: heron.' });
      const first = await warren([
        '-p',
        'The code word is heron.',
        ...against('--output-format', 'json'),
      ]);
      const { session_id: sessionId } = JSON.parse(first.stdout);
      const sessionFlags = ['--session-dir', sessions(), '--cwd', project()];

      cli.server.enqueue({ text: 'It was heron.' });
      const resumed = await warren(['-p', 'The word?', '--resume', sessionId, ...sessionFlags]);
      expect(resumed.stderr).toBe('');
      expect(resumed.stdout).toBe('It was heron.\n');
      expect(chatRequests()[1]?.body).toMatchObject({ model: 'test-model' });

      // WARREN_MODEL is ambient: the session keeps its own model over it.
      cli.server.enqueue({ text: 'Still heron.' });
      const continued = await warren(['-p', 'Again?', '--continue', ...sessionFlags], {
        env: { WARREN_MODEL: 'openai:gpt-4.1' },
      });
      expect(continued.stdout).toBe('Still heron.\n');

      // What the session keeps on disk: the model and the server, never a key.
      const kept = await readFile(join(sessions(), sessionId, 'model.json'), 'utf8');
      expect(JSON.parse(kept)).toEqual({
        model: 'openai-compatible:test-model',
        baseUrl: `${cli.server.url}/v1`,
      });
    });

    it('takes the --model a resumed session is told to use, without the old server', async () => {
      cli.server.enqueue({ text: 'first' });
      const first = await warren(['-p', 'one', ...against('--output-format', 'json')]);
      const { session_id: sessionId } = JSON.parse(first.stdout);
      const other = await warren(
        [
          '-p',
          'two',
          '--resume',
          sessionId,
          '--model',
          'openai-compatible:other',
          '--session-dir',
          sessions(),
        ],
        { env: { OPENAI_COMPATIBLE_BASE_URL: '' } },
      );
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(
        /^warren: --model openai-compatible:other: needs the address of the server/,
      );
    });

    it('has every line it reported on disk when the process is killed', async () => {
      cli.server.enqueue(
        { text: 'Looking around.', toolCalls: [{ name: 'Glob', input: { pattern: '*' } }] },
        { text: 'never finished', delayMs: 60_000 },
      );
      const child = spawn(
        process.execPath,
        [WARREN_BIN, '-p', 'go', ...against('--output-format', 'stream-json')],
        { env: { PATH: process.env.PATH, HOME: home() } },
      );
      const reported: Array<{ type: string; session_id?: string }> = [];
      let buffer = '';
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk) => {
          buffer += chunk;
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          for (const line of lines) reported.push(JSON.parse(line));
          if (reported.some((line) => line.type === 'tool_result')) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      await new Promise((resolve) => child.on('close', resolve));
      const file = join(sessions(), `${reported[0]?.session_id}.jsonl`);
      const records = jsonLines(await readFile(file, 'utf8'));
      const assistant = records.find((record) => record.message?.role === 'assistant');
      expect(assistant.message.content[0]).toEqual({ type: 'text', text: 'Looking around.' });
      expect(
        records.some((record) => record.type === 'tool_end' && record.toolName === 'Glob'),
      ).toBe(true);
    });

    it('skips a truncated last line on resume with a warning', async () => {
      cli.server.enqueue({ text: 'first' });
      const first = await warren(['-p', 'one', ...against('--output-format', 'json')]);
      const { session_id: sessionId } = JSON.parse(first.stdout);
      const file = join(sessions(), `${sessionId}.jsonl`);
      await writeFile(file, `${await readFile(file, 'utf8')}{"v":1,"type":"mess`);
      cli.server.enqueue({ text: 'second' });
      const second = await warren(['-p', 'two', ...against('--resume', sessionId)]);
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/warning: .*\.jsonl:\d+/);
    });
  });
});

describe('bad input: one line on stderr, exit 2, no stack trace', () => {
  const cases: Array<[string, string[], Record<string, string>, RegExp]> = [
    ['an unknown flag', ['-p', 'x', '--frobnicate'], {}, /--frobnicate.*warren --help/],
    [
      'a bad number',
      ['-p', 'x', '--max-turns', 'ten'],
      {},
      /--max-turns: expected a positive whole number, got "ten"/,
    ],
    [
      'a bad output format',
      ['-p', 'x', '--output-format', 'xml'],
      {},
      /--output-format: unknown value "xml".*text, json, stream-json/,
    ],
    [
      'a bad stall timeout',
      ['-p', 'x', '--stall-timeout', '0'],
      {},
      /--stall-timeout: expected a positive whole number, got "0"/,
    ],
    [
      'a session id that is not one, for warren tasks',
      ['tasks', '--session', '../etc'],
      {},
      /--session: "\.\.\/etc" is not a session id/,
    ],
    ['no model', ['-p', 'x'], {}, /--model: no model given/],
    ['an unknown provider', ['-p', 'x', '--model', 'gemini:pro'], {}, /unknown provider "gemini"/],
    [
      'a missing API key',
      ['-p', 'x', '--model', 'anthropic:claude-sonnet-4-5'],
      {},
      /ANTHROPIC_API_KEY/,
    ],
    [
      'openai-compatible without a base URL',
      ['-p', 'x', '--model', 'openai-compatible:m'],
      {},
      /--base-url/,
    ],
    [
      'a missing --cwd',
      ['-p', 'x', '--model', 'openai:gpt-4.1', '--cwd', '/no/such/dir'],
      { OPENAI_API_KEY: 'k' },
      /--cwd \/no\/such\/dir: is not a directory/,
    ],
    [
      'the terminal UI without a terminal, pointing to -p',
      [],
      {},
      /^warren: terminal UI: needs a terminal, and standard output is not one \(to run a prompt to the end, use warren -p/,
    ],
    [
      'an output flag without -p',
      ['--output-format', 'json'],
      {},
      /--output-format: applies to -p only/,
    ],
    [
      'an unknown session',
      ['-p', 'x', '--model', 'openai:gpt-4.1', '--resume', 'nope'],
      { OPENAI_API_KEY: 'k' },
      /--resume nope: no such session/,
    ],
  ];

  it.each(cases)('%s', async (_, args, env, message) => {
    const run = await warren(args, { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unreachable base URL', async () => {
    const closed = await startMockLlmServer();
    await closed.close();
    const run = await warren([
      '-p',
      'x',
      '--model',
      'openai-compatible:m',
      '--base-url',
      `${closed.url}/v1`,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^warren: --base-url: http:\/\/127\.0\.0\.1:\d+\/v1 is unreachable: .*ECONNREFUSED/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a bad scripted model file, naming file:line', async () => {
    const script = join(project(), 'script.yaml');
    await writeFile(
      script,
      'turns:\n  - text: hi\n  - toolCalls:\n      - name: Read\n        input: 7\n',
    );
    const run = await warren(['-p', 'x', '--model', `scripted:${script}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`${script}:5:\\d+: .*input`));
  });

  it('a scripted model file that is a YAML bomb, naming the file (exit 2, not a crash)', async () => {
    const script = join(project(), 'bomb.yaml');
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [prev, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg', 'gh', 'hi']) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    await writeFile(script, `${levels.join('\n')}\nturns: *i\n`);
    const run = await warren(['-p', 'x', '--model', `scripted:${script}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^warren: ${script}: its aliases expand to too much`));
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a malformed .warren/settings.json, naming file:line', async () => {
    await mkdir(join(project(), '.warren'));
    await writeFile(
      join(project(), '.warren/settings.json'),
      '{\n  "permissions": { "allow": ["Read",] }\n}\n',
    );
    cli.server.enqueue({ text: 'never' });
    const run = await warren(['-p', 'x', ...against()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/settings\.json:2:\d+/);
  });
});

it('stops quietly when the reader closes the pipe early', async () => {
  cli.server.enqueue({ toolCalls: [{ name: 'Glob', input: { pattern: '*' } }] }, { text: 'done' });
  const child = spawn(
    process.execPath,
    [WARREN_BIN, '-p', 'x', ...against('--output-format', 'stream-json')],
    {
      env: { PATH: process.env.PATH, HOME: home() },
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
});

it('prints help and version', async () => {
  const help = await warren(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('--output-format text|json|stream-json');
  const version = await warren(['--version']);
  expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
});
