// Bash with run_in_background, as a model uses it: start, read the output so far, stop, and
// afterwards no process it started is left; a command that ends on its own notifies its owner.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf } from '../core/events.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { query } from '../query.js';
import { processesWith, stillAlive } from '../testing/process-liveness.js';
import { ReactiveModel, type ReactiveRequest } from '../testing/reactive-model.js';
import { runToEnd } from '../testing/run-events.js';
import { makeTempDir } from '../testing/temp-dir.js';

async function run(cwd: string, answer: (request: ReactiveRequest) => ScriptTurn) {
  const generator = query({
    prompt: 'MAIN',
    options: {
      model: new ReactiveModel(answer),
      cwd,
      permissions: createPermissionPolicy({ mode: 'bypassPermissions' }),
    },
  });
  return { ...(await runToEnd(generator)), tasks: generator.tasks };
}

const call = (name: string, input: Record<string, unknown>): ScriptTurn => ({
  toolCalls: [{ name, input }],
});
const taskIdIn = (text: string | undefined) => /task_[0-9a-f]{8}/.exec(text ?? '')?.[0];
const toolEnd = (events: AgentEvent[], name: string) =>
  events.find(
    (event): event is AgentEventOf<'tool_end'> =>
      event.type === 'tool_end' && event.toolName === name,
  );

/** Running, not a zombie waiting to be reaped (a container's init may never reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

describe('a background shell command', () => {
  it('starts, shows its output so far, and stops with every process it started', async () => {
    const cwd = await makeTempDir();
    // Found by name: in the command sandbox `$!` is a PID of the command's own namespace.
    const sleep = `sleep 30.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    let sleepers: number[] = [];
    const { events, tasks } = await run(cwd, (request) => {
      const last = request.lastToolResult ?? '';
      if (last.includes('"status":"cancelled"')) return { text: 'stopped it' };
      const taskId = taskIdIn(request.text);
      if (last.includes('Output so far')) {
        sleepers = processesWith(sleep);
        return call('TaskStop', { task_id: taskId });
      }
      if (taskId) return { delayMs: 300, ...call('TaskOutput', { task_id: taskId, block: false }) };
      return call('Bash', { command: `echo started; ${sleep} & wait`, run_in_background: true });
    });
    const launched = toolEnd(events, 'Bash')!;
    expect(JSON.parse(launched.output.split('\n')[0]!)).toMatchObject({
      task_id: expect.stringMatching(/^task_/),
      status: 'running',
      output_file: expect.stringMatching(/\.output$/),
    });
    expect(toolEnd(events, 'TaskOutput')?.output).toMatch(
      /"status":"running"[\s\S]*Output so far:\nstarted/,
    );
    expect(toolEnd(events, 'TaskStop')?.output).toMatch(/"status":"cancelled"/);
    const [task] = tasks.list();
    expect(task).toMatchObject({
      kind: 'local_bash',
      status: 'cancelled',
      pid: expect.any(Number),
    });
    expect(sleepers).not.toEqual([]);
    expect(await stillAlive(sleepers)).toEqual([]);
    expect(alive(task!.pid!)).toBe(false);
    expect(readFileSync(task!.resultPath!, 'utf8')).toBe('started\n');
  });

  it('notifies its owner when it ends on its own, with its output and exit status', async () => {
    const cwd = await makeTempDir();
    const { result, tasks } = await run(cwd, (request) => {
      if (request.lastUser.includes('<task-notification>')) return { text: 'build finished' };
      if (request.lastToolResult?.includes('"task_id"')) return { text: 'waiting for the build' };
      return call('Bash', { command: 'sleep 0.1; echo built; exit 3', run_in_background: true });
    });
    expect(result.result).toBe('build finished');
    const notification = result.messages.find(
      (m) => m.role === 'user' && m.content.includes('<task-notification>'),
    );
    expect(notification?.content).toContain('<kind>local_bash</kind>');
    expect(notification?.content).toContain('<status>failed</status>');
    expect(notification?.content).toContain('<error>Exit code 3.</error>');
    expect(notification?.content).toContain('<result>\nbuilt\n</result>');
    expect(existsSync(tasks.list()[0]!.resultPath!)).toBe(true);
  });
});
