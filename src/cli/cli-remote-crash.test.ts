// Remote children survive crashes: kill -9 of the worker mid-child (a restarted worker resumes
// it) and kill -9 of restate-server (restarted, it resumes). The loopback model's request count
// and a file the child's Bash call appends to prove no completed step ran again; the parent's
// stream proves it got the child's result once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, startWarren } from '../testing/cli-process.js';
import type { MockReply } from '../testing/mock-llm/server.js';
import { restateServerBinary } from '../testing/restate-server.js';
import { type RestateWorld, type Script, startRestateWorld } from '../testing/restate-world.js';

const binary = restateServerBinary();
const skip = 'missing' in binary ? binary.missing : false;
if (skip) console.warn(`skipping remote-children crash tests: ${skip}`);

let world: RestateWorld;
let script: Script = () => ({ text: 'no script' });

beforeAll(async () => {
  if (skip) return;
  world = await startRestateWorld(() => script);
}, 180_000);
afterAll(async () => world?.stop(), 60_000);

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
      ? {
          toolCalls: [
            {
              name: 'Agent',
              input: {
                subagent_type: 'general-purpose',
                description: 'crash me',
                prompt: `CHILD-${marker} do it`,
                isolation: 'remote',
              },
            },
          ],
        }
      : { text: `PARENT got: ${turn.last.includes(`child ${marker} survived`)}` };
  };
  return { run, atSecondCall, release };
}

describe.skipIf(skip)('remote children across crashes', () => {
  it('resumes a child on a restarted worker after kill -9, without re-running its steps', async () => {
    const crash = crashScript('WORKER', 'worker-side.txt');
    script = crash.run;
    const parent = startWarren(['-p', 'PARENT-WORKER go', ...world.flags()], {
      env: world.env(),
      cwd: world.project,
    });
    await crash.atSecondCall;
    await world.worker.kill9();
    crash.release();
    await world.restartWorker();
    const run = await parent.exited;
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'PARENT got: true' });
    const ended = lines.filter((line) => line.type === 'agent_end' && line.depth === 1);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ status: 'completed', result: 'child WORKER survived' });
    // The Bash call ran once; the first model call was made once; the second, cut off by the
    // crash, was made again by the restarted worker.
    expect(world.read('worker-side.txt')).toBe('step\n');
    const calls = world.requestsOf('CHILD-WORKER');
    expect(calls.filter((turn) => turn.turn === 0)).toHaveLength(1);
    expect(calls.filter((turn) => turn.turn === 1)).toHaveLength(2);
  }, 240_000);

  it('resumes a child after kill -9 of restate-server and a restart', async () => {
    const crash = crashScript('SERVER', 'server-side.txt');
    script = crash.run;
    const parent = startWarren(['-p', 'PARENT-SERVER go', ...world.flags()], {
      env: world.env(),
      cwd: world.project,
    });
    await crash.atSecondCall;
    await world.server.kill9();
    crash.release();
    await world.server.restart();
    const run = await parent.exited;
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'PARENT got: true' });
    const ended = lines.filter((line) => line.type === 'agent_end' && line.depth === 1);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ status: 'completed', result: 'child SERVER survived' });
    expect(world.read('server-side.txt')).toBe('step\n');
    const calls = world.requestsOf('CHILD-SERVER');
    expect(calls.filter((turn) => turn.turn === 0)).toHaveLength(1);
    expect(calls.filter((turn) => turn.turn === 1).length).toBeGreaterThanOrEqual(1);
  }, 240_000);
});
