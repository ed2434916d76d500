// `--record` and `--replay` as a person uses them: record a run with sub-agents against a real
// provider wire format (the loopback server), then replay it with the server gone.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonLines, runWarren } from '../testing/cli-process.js';
import { type MockLlmServer, startMockLlmServer } from '../testing/mock-llm/server.js';
import { makeTempDir } from '../testing/temp-dir.js';

let server: MockLlmServer;
let project: string;
let cassette: string;

beforeEach(async () => {
  server = await startMockLlmServer();
  project = await makeTempDir('warren-cassette-');
  cassette = join(project, 'run.jsonl');
  await writeFile(join(project, 'notes.txt'), 'the answer is 42\n');
});
afterEach(async () => {
  await server.close();
});

function warren(args: string[], env: Record<string, string> = {}) {
  return runWarren(
    [
      ...args,
      '--cwd',
      project,
      '--session-dir',
      join(project, 'sessions'),
      '--output-format',
      'json',
    ],
    { env: { HOME: project, ...env } },
  );
}

const live = () => ['--model', 'openai-compatible:test-model', '--base-url', `${server.url}/v1`];

/** What must come out the same: the answer and the tree with its ids, without times and paths. */
function sameness(stdout: string) {
  const result = JSON.parse(stdout);
  return {
    result: result.result,
    subtype: result.subtype,
    usage: result.usage,
    agents: result.agents.map((agent: Record<string, unknown>) => ({
      agent_id: agent.agent_id,
      agent_type: agent.agent_type,
      description: agent.description,
      depth: agent.depth,
      status: agent.status,
      num_turns: agent.num_turns,
      tool_calls: agent.tool_calls,
      usage: agent.usage,
      subtree_usage: agent.subtree_usage,
    })),
  };
}

async function recordOne() {
  server.enqueue(
    {
      toolCalls: [
        { name: 'Agent', input: { description: 'read notes', prompt: 'Read notes.txt.' } },
      ],
    },
    { toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
    { text: 'The notes say 42.' },
    { text: 'The child says the notes say 42.' },
  );
  const recorded = await warren(['-p', 'what do the notes say?', ...live(), '--record', cassette]);
  expect(recorded.stderr).toBe('');
  expect(recorded.code).toBe(0);
  return recorded;
}

describe('--record and --replay', () => {
  it('replays a recorded run with sub-agents without the model server: same answer, same tree', async () => {
    const recorded = await recordOne();
    const lines = jsonLines(await readFile(cassette, 'utf8'));
    expect(lines[0]).toMatchObject({
      type: 'cassette',
      version: 2,
      model: 'openai-compatible:test-model',
    });
    expect(
      lines.filter((line) => line.type === 'model').map((line) => [line.path, line.turn]),
    ).toEqual([
      ['main', 1],
      ['main', 2],
      ['main/Agent#1/general-purpose', 1],
      ['main/Agent#1/general-purpose', 2],
    ]);
    await server.close();
    const replayed = await warren(['-p', 'what do the notes say?', '--replay', cassette]);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(sameness(replayed.stdout)).toEqual(sameness(recorded.stdout));
  });

  it('with --replay-tools, answers tool calls from the cassette instead of running them', async () => {
    const recorded = await recordOne();
    // The file changes; a replayed Read still sees what was recorded.
    await writeFile(join(project, 'notes.txt'), 'something else entirely\n');
    const replayed = await warren([
      '-p',
      'what do the notes say?',
      '--replay',
      cassette,
      '--replay-tools',
    ]);
    expect(replayed.code).toBe(0);
    expect(sameness(replayed.stdout)).toEqual(sameness(recorded.stdout));
    // Without it the tool runs for real, reads the new text, and the run no longer matches.
    const diverged = await warren(['-p', 'what do the notes say?', '--replay', cassette]);
    expect(diverged.code).toBe(1);
    expect(JSON.parse(diverged.stdout).error).toMatch(
      /replay: main\/Agent#1\/general-purpose, turn 2: the request differs from the recording at prompt\[\d+\]\.content\[0\]\.output\.value: recorded " +1\\tthe answer is 42", now " +1\\tsomething else entirely"/,
    );
  });

  it('fails with exit 1 naming the path and the turn when the prompt changed', async () => {
    await recordOne();
    const run = await runWarren(
      [
        '-p',
        'what do the notes mean?',
        '--replay',
        cassette,
        '--cwd',
        project,
        '--session-dir',
        join(project, 's'),
      ],
      { env: { HOME: project } },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^warren: replay: main, turn 1: the request differs from the recording at prompt\[1\]\.content\[0\]\.text: recorded "what do the notes say\?", now "what do the notes mean\?"\n$/,
    );
  });

  it('refuses flags that do not go together, and a file that is not a cassette (exit 2)', async () => {
    const both = await warren(['-p', 'x', ...live(), '--record', cassette, '--replay', cassette]);
    expect(both).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^warren: --record: cannot be used with --replay/),
    });
    const tools = await warren(['-p', 'x', ...live(), '--replay-tools']);
    expect(tools).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^warren: --replay-tools: needs --replay <cassette>/),
    });
    const missing = await warren(['-p', 'x', '--replay', join(project, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^warren: --replay .*nope\.jsonl: cannot read the cassette/);
    await writeFile(join(project, 'notes.jsonl'), '{"hello":"world"}\n');
    const wrong = await warren(['-p', 'x', '--replay', join(project, 'notes.jsonl')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/notes\.jsonl:1: not a warren cassette/);
    const unwritable = await warren([
      '-p',
      'x',
      ...live(),
      '--record',
      join(project, 'no', 'dir', 'c.jsonl'),
    ]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^warren: --record .*c\.jsonl: cannot write the cassette/);
  });
});
