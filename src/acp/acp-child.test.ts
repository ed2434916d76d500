import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { query } from '../query.js';
import { WARREN_BIN } from '../testing/cli-process.js';
import { echoRunOptions } from '../testing/echo-run-options.js';
import { processesWith, stillAlive } from '../testing/process-liveness.js';
import { ReactiveModel } from '../testing/reactive-model.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { makeTempDir } from '../testing/temp-dir.js';

const taskIdIn = (text: string | undefined) => /task_[0-9a-f]{8}/.exec(text ?? '')?.[0];

describe('a kind: acp child in the background', () => {
  it('is stopped by TaskStop: cancelled, its process gone', async () => {
    const home = await makeTempDir();
    // The external agent is `warren acp` answering after a minute: only a stop ends it sooner.
    const script = join(home, 'slow-inner.json');
    await writeFile(script, JSON.stringify({ turns: [{ delayMs: 60_000, text: 'too late' }] }));
    const model = new ReactiveModel((request) => {
      if (request.lastToolResult?.includes('"status":"cancelled"'))
        return { text: 'It is stopped.' };
      const launched = taskIdIn(request.lastToolResult);
      if (launched) return { toolCalls: [{ name: 'TaskStop', input: { task_id: launched } }] };
      if (request.lastUser.includes('<task-notification>')) return { text: 'noted' };
      return {
        toolCalls: [
          {
            name: 'Agent',
            input: {
              subagent_type: 'inner',
              description: 'slow',
              prompt: 'wait',
              run_in_background: true,
            },
          },
        ],
      };
    });
    const run = query({
      prompt: 'go',
      options: {
        ...(await echoRunOptions(model)),
        agents: {
          inner: {
            description: 'an external ACP agent',
            prompt: '',
            kind: 'acp',
            command: process.execPath,
            args: [
              WARREN_BIN,
              'acp',
              '--model',
              `scripted:${script}`,
              '--session-dir',
              join(home, 'sessions'),
            ],
            env: { HOME: home },
          },
        },
      },
    });
    const { events } = await runToEnd(run);
    const ended = ofType(events, 'result').find((event) => event.agentType === 'inner');
    expect(ended).toMatchObject({ status: 'cancelled' });
    expect(await stillAlive(processesWith(script))).toEqual([]);
  });
});
