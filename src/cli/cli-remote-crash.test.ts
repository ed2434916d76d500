// Remote children survive crashes: kill -9 of the worker mid-child (a restarted worker resumes
// it) and kill -9 of restate-server (restarted, it resumes). The loopback model's request count
// and a file the child's Bash call appends to prove no completed step ran again; the parent's
// stream proves it got the child's result once.
import { describe, expect, it } from 'vitest';
import { jsonLines, startWarren } from '../testing/cli-process.js';
import type { MockReply } from '../testing/mock-llm/server.js';
import { remoteAgentCall, restateSuite, type Script } from '../testing/restate/restate-world.js';

const suite = restateSuite('remote-children crash tests');

/**
 * A parent that starts one remote child; the child appends a line to `file` with Bash, then its
 * second model call is held until `release()`: the moment of the crash.
 */
function crashScript(marker: string, file: string) {
  let reached: () => void = () => {};
  const atSecondCall = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const run: Script = async (turn): Promise<MockReply> => {
    if (turn.prompt.includes(`CHILD-${marker}`)) {
      if (turn.turn === 0) {
        return { toolCalls: [{ name: 'Bash', input: { command: `echo step >> ${file}` } }] };
      }
      reached();
      await released;
      return { text: `child ${marker} survived` };
    }
    return turn.turn === 0
      ? remoteAgentCall(`CHILD-${marker} do it`, 'crash me')
      : { text: `PARENT got: ${turn.last.includes(`child ${marker} survived`)}` };
  };
  return { run, atSecondCall, release };
}

/**
 * Runs a parent whose remote child is cut off by `crash` at its second model call, then lets the
 * child go on after `restart`; the child's model calls, once the parent has its result.
 */
async function crashAndResume(
  marker: string,
  crash: () => Promise<void>,
  restart: () => Promise<void>,
) {
  const { world } = suite;
  const file = `${marker.toLowerCase()}-side.txt`;
  const script = crashScript(marker, file);
  suite.script = script.run;
  const parent = startWarren(['-p', `PARENT-${marker} go`, ...world.flags()], {
    env: world.env(),
    cwd: world.project,
  });
  await script.atSecondCall;
  await crash();
  script.release();
  await restart();
  const run = await parent.exited;
  expect(run.code).toBe(0);
  const lines = jsonLines(run.stdout);
  expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'PARENT got: true' });
  const ended = lines.filter((line) => line.type === 'agent_end' && line.depth === 1);
  expect(ended).toHaveLength(1);
  expect(ended[0]).toMatchObject({ status: 'completed', result: `child ${marker} survived` });
  // What the child spent on its worker is counted in the parent's tree, crash or not.
  const [main, child] = lines.at(-1).agents;
  expect(child.usage.input_tokens).toBeGreaterThan(0);
  expect(child.usage).toEqual(ended[0].usage);
  expect(main.subtree_usage.input_tokens).toBe(main.usage.input_tokens + child.usage.input_tokens);
  // The Bash call ran once; the first model call was made once.
  expect(world.read(file)).toBe('step\n');
  const calls = world.requestsOf(`CHILD-${marker}`);
  expect(calls.filter((turn) => turn.turn === 0)).toHaveLength(1);
  return calls;
}

describe.skipIf(suite.skip)('remote children across crashes', () => {
  it('resumes a child on a restarted worker after kill -9, without re-running its steps', async () => {
    const { world } = suite;
    const calls = await crashAndResume(
      'WORKER',
      () => world.worker.kill9(),
      () => world.restartWorker(),
    );
    // The second, cut off by the crash, was made again by the restarted worker.
    expect(calls.filter((turn) => turn.turn === 1)).toHaveLength(2);
  }, 240_000);

  it('resumes a child after kill -9 of restate-server and a restart', async () => {
    const { world } = suite;
    const calls = await crashAndResume(
      'SERVER',
      () => world.server.kill9(),
      () => world.server.restart(),
    );
    expect(calls.filter((turn) => turn.turn === 1).length).toBeGreaterThanOrEqual(1);
  }, 240_000);
});
