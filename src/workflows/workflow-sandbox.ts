// Runs a workflow script in QuickJS (WebAssembly): no file system, network, process or module
// loading, a memory cap and a CPU deadline per step. Host calls cross the boundary as promises
// (not asyncify), so any number of agent() calls can be outstanding at once under parallel().

import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { messageOf } from '../core/error-message.js';
import { SANDBOX_PRELUDE } from './sandbox-prelude.js';

/** What the script may ask of its host: every answer is JSON text. */
export interface SandboxHost {
  /**
   * agent(): resolves with the result's JSON, or rejects with `{message, status, ...}` JSON (an
   * item that failed: an AgentError in the script), or with an Error (a refused call: an Error).
   */
  agent(request: { prompt: string; options: Record<string, unknown> }): Promise<string>;
  /** A synchronous call (args, budget, log, phase, items); throws to raise in the script. */
  call(op: string, payload: unknown): string;
}

export interface SandboxLimits {
  /** Bytes of the interpreter's heap. */
  memoryBytes?: number;
  /** How long one synchronous stretch of the script may run before it is stopped. */
  stepMs?: number;
}

/** A script error, for the run's result: one line, with the script's own line where known. */
export class WorkflowScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkflowScriptError';
  }
}

let quickjs: Promise<QuickJSWASMModule> | undefined;

export function loadQuickJs(): Promise<QuickJSWASMModule> {
  // Loaded on the first workflow: other runs never pay for the interpreter.
  quickjs ??= import('quickjs-emscripten-core').then(({ newQuickJSWASMModuleFromVariant }) =>
    newQuickJSWASMModuleFromVariant(import('@jitl/quickjs-wasmfile-release-sync')),
  );
  return quickjs;
}

/**
 * Runs `source` (an ES module with top-level await) to its end and resolves with its exports'
 * `result` (or undefined); rejects with a WorkflowScriptError when the script throws, never
 * settles, or breaks a limit. `signal` stops it: pending calls are dropped and the VM freed.
 */
export async function runInSandbox(
  source: string,
  filename: string,
  host: SandboxHost,
  options: SandboxLimits & { signal?: AbortSignal } = {},
): Promise<unknown> {
  const module = await loadQuickJs();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(options.memoryBytes ?? 256 * 1024 * 1024);
  runtime.setMaxStackSize(1024 * 1024);
  const stepMs = options.stepMs ?? 5_000;
  let stepDeadline = 0;
  runtime.setInterruptHandler(() => stepDeadline > 0 && performance.now() > stepDeadline);
  const context = runtime.newContext();
  let pending = 0;
  let finished = false;
  let freed = false;
  try {
    defineHost(context, host, {
      started: () => pending++,
      settled: () => {
        pending--;
      },
      live: () => !finished,
      vmAlive: () => !freed,
      drain: () => drain(),
    });
    const step = <T>(work: () => T): T => {
      stepDeadline = performance.now() + stepMs;
      try {
        return work();
      } finally {
        stepDeadline = 0;
      }
    };
    const drain = () => {
      if (finished) return;
      const jobs = step(() => runtime.executePendingJobs());
      if (jobs.error) {
        const error = context.dump(jobs.error);
        jobs.error.dispose();
        fail(scriptError(error, filename));
      }
      check();
    };
    let settle!: { resolve: (value: unknown) => void; reject: (error: Error) => void };
    const done = new Promise<unknown>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const fail = (error: Error) => {
      if (finished) return;
      finished = true;
      settle.reject(error);
    };
    const prelude = step(() =>
      context.evalCode(SANDBOX_PRELUDE, 'warren-prelude.js', { type: 'global' }),
    );
    if (prelude.error)
      throw new Error(
        `the workflow prelude failed: ${JSON.stringify(context.dump(prelude.error))}`,
      );
    prelude.value.dispose();
    const evaluated = step(() =>
      context.evalCode(source, filename, { type: 'module', strict: true }),
    );
    if (evaluated.error) {
      const error = context.dump(evaluated.error);
      evaluated.error.dispose();
      throw scriptError(error, filename);
    }
    const modulePromise: QuickJSHandle = evaluated.value;
    // After each drain: a settled module ends the run; a pending one with nothing outstanding
    // waits on something that can never settle (no timers exist here).
    const check = () => {
      if (finished) return;
      const state = context.getPromiseState(modulePromise);
      if (state.type === 'fulfilled') {
        finished = true;
        const exported = state.notAPromise ? state.value : state.value;
        const result = readResult(context, exported);
        if (!state.notAPromise) exported.dispose();
        settle.resolve(result);
      } else if (state.type === 'rejected') {
        const error = context.dump(state.error);
        state.error.dispose();
        fail(scriptError(error, filename));
      } else if (pending === 0) {
        fail(
          new WorkflowScriptError(
            `${filename}: the script awaits something that never settles (only agent() calls settle in a workflow)`,
          ),
        );
      }
    };
    const onAbort = () => fail(new WorkflowScriptError(`${filename}: stopped`));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      drain();
      return await done;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      modulePromise.dispose();
    }
  } finally {
    finished = true;
    // The host stops its calls when the run ends; until they have settled the VM stays, so no
    // late answer writes into freed memory. One that never settles leaves the VM to the GC.
    if (await settledCalls(() => pending)) {
      freed = true;
      context.dispose();
      runtime.dispose();
    }
  }
}

/** The module's `result` export when it has one (as JSON); `meta` and others stay inside. */
function readResult(context: QuickJSContext, exported: QuickJSHandle): unknown {
  if (context.typeof(exported) !== 'object') return undefined;
  const handle = context.getProp(exported, 'result');
  try {
    return context.typeof(handle) === 'undefined' ? undefined : context.dump(handle);
  } finally {
    handle.dispose();
  }
}

interface Pending {
  started(): void;
  settled(): void;
  live(): boolean;
  vmAlive(): boolean;
  drain(): void;
}

function defineHost(context: QuickJSContext, host: SandboxHost, pending: Pending): void {
  const fn = context.newFunction('__warrenHost', (opHandle, payloadHandle) => {
    const op = context.getString(opHandle);
    const payload = JSON.parse(context.getString(payloadHandle)) as unknown;
    if (op === 'agent') return agentCall(context, host, pending, payload);
    try {
      return context.newString(host.call(op, payload));
    } catch (error) {
      return { error: context.newError(messageOf(error)) };
    }
  });
  context.setProp(context.global, '__warrenHost', fn);
  fn.dispose();
}

function agentCall(
  context: QuickJSContext,
  host: SandboxHost,
  pending: Pending,
  payload: unknown,
): QuickJSHandle {
  const deferred = context.newPromise();
  pending.started();
  let answer: Promise<string>;
  try {
    answer = host.agent(payload as { prompt: string; options: Record<string, unknown> });
  } catch (error) {
    answer = Promise.reject(error);
  }
  const settle = (fulfilled: boolean, text: string) => {
    pending.settled();
    // The run is over: the promise is freed while the VM stands, never touched once it is gone.
    if (!pending.live()) {
      if (pending.vmAlive()) deferred.dispose();
      return;
    }
    const handle = context.newString(text);
    if (fulfilled) deferred.resolve(handle);
    else deferred.reject(handle);
    handle.dispose();
    deferred.dispose();
    pending.drain();
  };
  answer.then(
    (json) => settle(true, json),
    (error: unknown) => settle(false, rejection(error)),
  );
  return deferred.handle;
}

function rejection(error: unknown): string {
  if (typeof error === 'string') return error;
  return JSON.stringify({
    message: messageOf(error),
    status: 'refused',
  });
}

/** Waits up to 30 s for host calls still running when the script ended; true once none are. */
async function settledCalls(count: () => number): Promise<boolean> {
  for (let i = 0; i < 3000 && count() > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return count() === 0;
}

function scriptError(dumped: unknown, filename: string): WorkflowScriptError {
  if (dumped && typeof dumped === 'object') {
    const { name, message, stack } = dumped as { name?: string; message?: string; stack?: string };
    const where = /\((?:[^():]*?):(\d+)(?::\d+)?\)|at [^\n]*?:(\d+)/.exec(stack ?? '');
    const line = where?.[1] ?? where?.[2];
    const place = line ? `${filename}:${line}` : filename;
    return new WorkflowScriptError(`${place}: ${name ?? 'Error'}: ${message ?? String(dumped)}`);
  }
  return new WorkflowScriptError(`${filename}: uncaught ${JSON.stringify(dumped)}`);
}
