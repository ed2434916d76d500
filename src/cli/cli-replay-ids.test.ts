// `--replay` of runs whose tool results carry ids (a background agent's task and agent ids, a
// worktree's branch, an MCP server's answers): the replayed run gets the ids the recording had,
// so it asks its model exactly what the recorded run asked, and reports the same ids.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runWarren } from '../testing/cli-process.js';
import { gitIn, makeGitRepo } from '../testing/git-repo.js';
import { everythingServer } from '../testing/mcp-servers.js';
import { makeTempDir } from '../testing/temp-dir.js';

let project: string;
let cassette: string;

beforeEach(async () => {
  project = await makeTempDir('warren-replay-ids-');
  cassette = join(project, 'run.cassette.jsonl');
  await writeFile(join(project, 'notes.txt'), 'the answer is 42\n');
});

function warren(args: string[]) {
  return runWarren(
    [...args, '--session-dir', join(project, 'sessions'), '--output-format', 'json'],
    { cwd: project, env: { HOME: project } },
  );
}

async function scripted(yaml: string): Promise<string[]> {
  await writeFile(join(project, 'live.yaml'), yaml);
  return ['--model', `scripted:${join(project, 'live.yaml')}`];
}

/** What a replay must reproduce: the answer, and every agent with its ids. */
function idsAndAnswer(stdout: string) {
  const result = JSON.parse(stdout);
  return {
    result: result.result,
    agents: result.agents.map((agent: Record<string, unknown>) => ({
      agent_id: agent.agent_id,
      parent_id: agent.parent_id,
      task_id: agent.task_id,
      status: agent.status,
      num_turns: agent.num_turns,
    })),
  };
}

/** Records a run, then replays it (with `replayFlags`); both must succeed the same way. */
async function recordThenReplay(prompt: string, live: string[], replayFlags: string[][]) {
  const recorded = await warren(['-p', prompt, ...live, '--record', cassette]);
  expect(recorded.stderr).toBe('');
  expect(recorded.code).toBe(0);
  for (const flags of replayFlags) {
    const replayed = await warren(['-p', prompt, '--replay', cassette, ...flags]);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(idsAndAnswer(replayed.stdout)).toEqual(idsAndAnswer(recorded.stdout));
  }
  return JSON.parse(recorded.stdout);
}

const BACKGROUND = `
turns:
  - match: { agent: "/^main$/", prompt: START }
    tool_calls:
      - name: Agent
        input: { description: find notes, prompt: "BG read the notes", run_in_background: true }
  - match: { agent: "/general-purpose$/" }
    tool_calls: [{ name: Read, input: { file_path: notes.txt } }]
  - match: { agent: "/general-purpose$/" }
    delay_ms: 100
    text: "The notes say 42."
  - match: { agent: "/^main$/", last_tool_result: '"task_id"' }
    text: "Waiting for it."
  - match: { agent: "/^main$/", prompt: "<task-notification>" }
    text: "FINAL: 42"
`;

describe('--replay of a run with ids in its tool results', () => {
  it('replays a background agent under its recorded task and agent ids, with --replay-tools too', async () => {
    const recorded = await recordThenReplay('START', await scripted(BACKGROUND), [
      [],
      ['--replay-tools'],
    ]);
    expect(recorded.result).toBe('FINAL: 42');
    expect(recorded.agents[1]).toMatchObject({ background: true, task_id: expect.any(String) });
  });

  it('replays a child in a worktree under its recorded id: the same branch in the same note', async () => {
    makeGitRepo(project, { 'notes.txt': 'the answer is 42\n' });
    const live = await scripted(`
turns:
  - match: { agent: "/^main$/" }
    tool_calls:
      - name: Agent
        input: { description: edit notes, prompt: "WT add a line", isolation: worktree }
  - match: { agent: "/general-purpose$/" }
    tool_calls: [{ name: Bash, input: { command: "echo more >> notes.txt" } }]
  - match: { agent: "/general-purpose$/" }
    text: "Added a line."
  - match: { agent: "/^main$/" }
    text: "DONE"
`);
    const flags = ['--permission-mode', 'bypassPermissions'];
    const recorded = await warren(['-p', 'edit', ...live, ...flags, '--record', cassette]);
    expect(recorded.code).toBe(0);
    const childId = JSON.parse(recorded.stdout).agents[1].agent_id;
    expect(gitIn(project, 'branch', '--list', `warren/${childId}`)).toContain(childId);
    // The kept worktree is removed first: a replay makes it again, under the same id.
    gitIn(project, 'worktree', 'remove', '--force', join('.warren', 'worktrees', childId));
    gitIn(project, 'branch', '-D', `warren/${childId}`);
    const replayed = await warren(['-p', 'edit', '--replay', cassette, ...flags]);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(idsAndAnswer(replayed.stdout)).toEqual(idsAndAnswer(recorded.stdout));
    expect(gitIn(project, 'show', `warren/${childId}:notes.txt`)).toContain('more');
  });

  it('replays a run that used an MCP server; with --replay-tools the server is not needed', async () => {
    const config = join(project, 'servers.json');
    await writeFile(config, JSON.stringify({ mcpServers: { e: everythingServer() } }));
    const live = await scripted(`
turns:
  - match: { agent: "/^main$/" }
    tool_calls: [{ name: mcp__e__echo, input: { message: "over stdio" } }]
  - match: { agent: "/^main$/" }
    text: "ECHOED"
`);
    await recordThenReplay(
      'echo it',
      [...live, '--mcp-config', config],
      [['--mcp-config', config]],
    );
    // The server's command is gone: the recorded results answer.
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { e: { command: 'warren-no-such-server' } } }),
    );
    const replayed = await warren([
      '-p',
      'echo it',
      '--replay',
      cassette,
      '--replay-tools',
      '--mcp-config',
      config,
    ]);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout).result).toBe('ECHOED');
  });
});
