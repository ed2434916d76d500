// --max-parallel under a low open-file limit: warren runs as many agents at once as the limit
// holds, says so on stderr, and every agent starts and reads its file.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WARREN_BIN } from '../../testing/cli-process.js';
import { makeTempDir } from '../../testing/temp-dir.js';
import { OpenFileFailures, parallelWithin } from './open-file-limit.js';

const run = promisify(execFile);
const CHILDREN = 100;

/** A main agent that starts CHILDREN agents at once, each reading notes.txt. */
function fanOutScript(): string {
  const calls = Array.from(
    { length: CHILDREN },
    (_, i) =>
      `      - { name: Agent, input: { description: part ${i}, prompt: "Read part ${i}." } }`,
  );
  const children = Array.from(
    { length: CHILDREN },
    () => `  - match: { agent: "/^main/Agent#/", last_tool_result: hello }
    text: read it.
  - match: { agent: "/^main/Agent#/" }
    tool_calls: [{ name: Read, input: { file_path: notes.txt } }]`,
  );
  return [
    'turns:',
    '  - match: { agent: "/^main$/" }',
    '    tool_calls:',
    ...calls,
    ...children,
    '  - { match: { agent: "/^main$/" }, text: all read }',
  ].join('\n');
}

describe('--max-parallel under a low ulimit -n', () => {
  it('runs every agent within the limit it finds, and says so on stderr', async () => {
    const project = await makeTempDir('warren-ulimit-');
    await writeFile(join(project, 'notes.txt'), 'hello\n');
    await writeFile(join(project, 'fan-out.yaml'), fanOutScript());
    const args = [
      WARREN_BIN,
      '-p',
      'read them all',
      '--model',
      `scripted:${join(project, 'fan-out.yaml')}`,
      '--max-parallel',
      '200',
      '--session-dir',
      join(project, 'sessions'),
      '--output-format',
      'json',
    ];
    const { stdout, stderr } = await run(
      'bash',
      ['-c', 'ulimit -n 64; exec "$0" "$@"', process.execPath, ...args],
      { cwd: project, env: { PATH: process.env.PATH, HOME: project }, maxBuffer: 64 << 20 },
    );
    expect(stderr).toBe(
      'warren: warning: --max-parallel 200 needs about 832 open files, and the limit is 64 (ulimit -n): running at most 8 agents at once; raise the limit (ulimit -n 4096) to run more\n',
    );
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ subtype: 'success', result: 'all read' });
    const children = result.agents.filter((agent: { depth: number }) => agent.depth === 1);
    expect(children).toHaveLength(CHILDREN);
    for (const child of children)
      expect(child).toMatchObject({ status: 'completed', tool_calls: 1 });
  }, 120_000);

  it('leaves --max-parallel as given when the limit holds it, or when there is no limit', () => {
    expect(parallelWithin(10, 1024)).toEqual({ maxParallel: 10 });
    expect(parallelWithin(200, undefined)).toEqual({ maxParallel: 200 });
    expect(parallelWithin(50, 20)).toMatchObject({ maxParallel: 1 });
  });

  it('fails a run whose agents could not start on "too many open files", saying why', () => {
    const failures = new OpenFileFailures();
    const ref = { agentId: 'main_1', parentId: null, depth: 0 };
    const ended = (toolName: string, output: string, isError = true) =>
      failures.observe({
        ...ref,
        type: 'tool_end',
        toolCallId: `call_${toolName}`,
        toolName,
        output,
        isError,
        durationMs: 1,
      });
    ended('Read', 'notes say hello', false);
    expect(failures.report(64)).toBeUndefined();
    ended('Read', "EMFILE: too many open files, open '/p/notes.txt'");
    expect(failures.agentsFailed).toBe(false);
    ended('Agent', "Agent failed: EMFILE: too many open files, open '/s/agents/a.jsonl'");
    ended('Agent', 'Agent failed: EMFILE: too many open files');
    expect(failures.agentsFailed).toBe(true);
    expect(failures.report(64)).toBe(
      '2 agents could not start and 1 tool call failed on "too many open files" (ulimit -n is 64): raise the limit with ulimit -n, or lower --max-parallel',
    );
  });
});
