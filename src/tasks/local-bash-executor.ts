// `local_bash`: a shell command in the background. It runs in its own process group with its
// output going to a file; stopping it (TaskStop, a timeout, the run's end) stops the whole group,
// and so does its end: nothing it started outlives it. A sandboxed one runs in its own PID
// namespace, which ends with it, whatever it started and however it hid.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandLaunch } from '../core/command-sandbox.js';
import { releaseGroup, signalGroup, stopGroup, trackGroup } from '../core/process-group.js';
import type { TaskControl, TaskExecutor, TaskOutcome, TaskStatus } from '../core/tasks.js';

/** Between SIGTERM and SIGKILL: time for a command to clean up after itself. */
const KILL_GRACE_MS = 2_000;

export interface BashTaskSpec {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Where the output file goes: `<task-id>.output`, stdout and stderr together. */
  outputDir: string;
  /** How to start it (the run's sandbox); `bash -c` with warren's environment when absent. */
  launch?: CommandLaunch;
}

export function bashOutputPath(outputDir: string, taskId: string): string {
  return join(outputDir, `${taskId}.output`);
}

/** The tail of the output a notification and TaskOutput show; the file has all of it. */
const TAIL_CHARS = 10_000;

interface BashRun {
  spec: BashTaskSpec;
  outputPath: string;
  pid: number | undefined;
  status: TaskStatus;
  stoppedBy: 'timeout' | 'stop' | undefined;
  result: Promise<TaskOutcome>;
}

export class LocalBashExecutor implements TaskExecutor<BashTaskSpec> {
  readonly kind = 'local_bash' as const;
  readonly #runs = new Map<string, BashRun>();

  start(taskId: string, spec: BashTaskSpec, control: TaskControl): void {
    const run: BashRun = {
      spec,
      outputPath: bashOutputPath(spec.outputDir, taskId),
      pid: undefined,
      status: 'running',
      stoppedBy: undefined,
      result: Promise.resolve(notStarted('')),
    };
    this.#runs.set(taskId, run);
    run.result = this.#run(taskId, run, control).finally(() => this.#runs.delete(taskId));
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    return this.#runs.get(taskId)?.status;
  }

  stop(taskId: string): void {
    const run = this.#runs.get(taskId);
    if (!run?.pid || run.stoppedBy) return;
    run.stoppedBy = 'stop';
    stopGroup(run.pid, KILL_GRACE_MS);
  }

  result(taskId: string): Promise<TaskOutcome> {
    const run = this.#runs.get(taskId);
    if (!run) return Promise.reject(new Error(`local_bash: no task ${taskId} in this process`));
    return run.result;
  }

  output(taskId: string): string {
    const run = this.#runs.get(taskId);
    return run ? tail(run.outputPath) : '';
  }

  /** The process id of a running task, for tests and `warren tasks`. */
  pid(taskId: string): number | undefined {
    return this.#runs.get(taskId)?.pid;
  }

  async #run(taskId: string, run: BashRun, control: TaskControl): Promise<TaskOutcome> {
    const { spec, outputPath } = run;
    if (control.signal.aborted) return notStarted(outputPath);
    mkdirSync(dirname(outputPath), { recursive: true });
    const fd = openSync(outputPath, 'a');
    let child: ReturnType<typeof spawn>;
    try {
      const launch = spec.launch ?? { file: 'bash', args: ['-c', spec.command], env: process.env };
      child = spawn(launch.file, launch.args, {
        cwd: spec.cwd,
        detached: true,
        stdio: ['ignore', fd, fd],
        // Marks the process as this task's, so a resume after a crash can find and stop it.
        env: { ...launch.env, WARREN_TASK_ID: taskId },
      });
    } finally {
      closeSync(fd);
    }
    run.pid = child.pid;
    // Killed if warren exits first, whatever the reason: nothing a run started outlives it.
    if (child.pid !== undefined) trackGroup(child.pid);
    control.running({ pid: child.pid });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
      (resolve) => {
        child.once('exit', (code, signal) => resolve({ code, signal }));
        child.once('error', resolve);
      },
    );
    const timer = setTimeout(() => {
      if (run.pid === undefined || run.stoppedBy) return;
      run.stoppedBy = 'timeout';
      stopGroup(run.pid, KILL_GRACE_MS);
    }, spec.timeoutMs);
    const onStop = () => this.stop(taskId);
    control.signal.addEventListener('abort', onStop, { once: true });
    try {
      const ending = await ended;
      // Whatever the command left running in its group goes with it.
      if (run.pid !== undefined) {
        signalGroup(run.pid, 'SIGKILL');
        releaseGroup(run.pid);
      }
      return outcomeOf(ending, run, tail(outputPath));
    } finally {
      clearTimeout(timer);
      control.signal.removeEventListener('abort', onStop);
    }
  }
}

function outcomeOf(
  ending: { code: number | null; signal: NodeJS.Signals | null } | Error,
  run: BashRun,
  output: string,
): TaskOutcome {
  const base = {
    result: output,
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: run.outputPath,
  };
  if (ending instanceof Error) {
    return { ...base, status: 'failed', error: `Could not start bash: ${ending.message}` };
  }
  if (run.stoppedBy === 'stop') {
    return { ...base, status: 'cancelled', error: 'Stopped; its process group was killed.' };
  }
  if (run.stoppedBy === 'timeout') {
    return {
      ...base,
      status: 'failed',
      error: `Timed out after ${run.spec.timeoutMs} ms; its process group was killed.`,
    };
  }
  if (ending.signal !== null) {
    return { ...base, status: 'failed', error: `Killed by ${ending.signal}.` };
  }
  if (ending.code !== 0) return { ...base, status: 'failed', error: `Exit code ${ending.code}.` };
  return { ...base, status: 'completed' };
}

function notStarted(outputPath: string): TaskOutcome {
  return {
    status: 'cancelled',
    result: '',
    error: 'Stopped before it started.',
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: outputPath || null,
  };
}

/** The last TAIL_CHARS of the output file, marked when cut. */
function tail(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = statSync(path);
    const length = Math.min(size, TAIL_CHARS * 4);
    const bytes = Buffer.alloc(length);
    readSync(fd, bytes, 0, length, size - length);
    const text = bytes.toString('utf8');
    if (text.length <= TAIL_CHARS && length === size) return text.replace(/\n+$/, '');
    return `[… earlier output is in ${path}]\n${text.slice(-TAIL_CHARS).replace(/\n+$/, '')}`;
  } finally {
    closeSync(fd);
  }
}
