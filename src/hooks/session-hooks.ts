// The hooks of one session (one query() run): those of the settings files and of the library,
// run for every agent together with its definition's own. Builds the HookRunner each agent's
// loop calls, and stops every hook still running when the session closes.
import { messageOf } from '../core/error-message.js';
import type {
  HookAgent,
  HookEvent,
  HookEventName,
  HookOutcome,
  HookRunner,
} from '../core/hook-runner.js';
import { runCommandHook } from './command-hook.js';
import { type HookSession, hookInputOf, matcherSubject } from './hook-input.js';
import { emptyOutcome, outcomeOfCommand, outcomeOfJson } from './hook-output.js';
import type { CompiledGroup, CompiledHandler, CompiledHooks } from './hook-settings.js';
import { mergeOutcomes } from './merge-outcomes.js';

export interface SessionHooksOptions {
  /** The session's hooks, each set as compiled from one source (settings file, library). */
  hooks: readonly CompiledHooks[];
  sessionId: string;
  mainAgentId: string;
  transcriptPathFor?: (agentId: string) => string | undefined;
  /** The project folder: `$CLAUDE_PROJECT_DIR` and `$WARREN_PROJECT_DIR` for command hooks. */
  projectDir: string;
  /** Environment of command hooks. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** A reason not to run a command hook now (its pinned script changed), else undefined. */
  commandCheck?: (command: string) => string | undefined;
}

export interface AgentHooks {
  /** The agent definition's own hooks, active only while it runs. */
  own?: CompiledHooks;
  /** In a sub-agent's definition, `Stop` means its SubagentStop. */
  subagent: boolean;
  /** Context for the agent's first UserPromptSubmit (what SessionStart hooks added). */
  promptContext?: string;
}

export class SessionHooks {
  readonly #session: HookSession;
  readonly #hooks: readonly CompiledHooks[];
  readonly #env: NodeJS.ProcessEnv;
  readonly #commandCheck: SessionHooksOptions['commandCheck'];
  readonly #closing = new AbortController();
  readonly #running = new Set<Promise<HookOutcome>>();

  constructor(options: SessionHooksOptions) {
    this.#session = {
      sessionId: options.sessionId,
      mainAgentId: options.mainAgentId,
      transcriptPathFor: options.transcriptPathFor ?? (() => undefined),
    };
    this.#hooks = options.hooks.filter((hooks) => hooks.size > 0);
    this.#commandCheck = options.commandCheck;
    this.#env = {
      ...(options.env ?? process.env),
      CLAUDE_PROJECT_DIR: options.projectDir,
      WARREN_PROJECT_DIR: options.projectDir,
    };
  }

  /**
   * The runner of one agent's loop; undefined when neither the session nor the agent has a
   * hook, so a run without hooks does no hook work at all.
   */
  runnerFor(agent: AgentHooks): HookRunner | undefined {
    const own = agent.own && agent.subagent ? stopAsSubagentStop(agent.own) : agent.own;
    const sources = own && own.size > 0 ? [...this.#hooks, own] : this.#hooks;
    if (sources.length === 0 && agent.promptContext === undefined) return undefined;
    let promptContext = agent.promptContext;
    return {
      run: async (event, signal) => {
        const outcome = await this.#run(sources, event, signal);
        if (event.name !== 'UserPromptSubmit' || promptContext === undefined) return outcome;
        const context = [promptContext, outcome.context].filter(Boolean).join('\n\n');
        promptContext = undefined;
        return { ...outcome, context };
      },
    };
  }

  /** SessionStart: the context its hooks add for the main agent's first prompt. */
  async start(
    agent: HookAgent,
    facts: { cwd: string; source: 'startup' | 'resume'; model: string },
    signal: AbortSignal,
  ): Promise<HookOutcome> {
    return this.#run(this.#hooks, { name: 'SessionStart', agent, ...facts }, signal);
  }

  async end(agent: HookAgent, facts: { cwd: string; reason: string }): Promise<HookOutcome> {
    return this.#run(this.#hooks, { name: 'SessionEnd', agent, ...facts }, this.#closing.signal);
  }

  /** Stops every hook still running (a notifier, say) and waits until they are gone. */
  async close(): Promise<void> {
    this.#closing.abort();
    await Promise.allSettled([...this.#running]);
  }

  #run(
    sources: readonly CompiledHooks[],
    event: HookEvent,
    signal: AbortSignal,
  ): Promise<HookOutcome> {
    const handlers = handlersFor(sources, event);
    if (handlers.length === 0) return Promise.resolve(emptyOutcome());
    const running = this.#runHandlers(handlers, event, signal);
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
    return running;
  }

  async #runHandlers(
    handlers: readonly CompiledHandler[],
    event: HookEvent,
    signal: AbortSignal,
  ): Promise<HookOutcome> {
    const stop = AbortSignal.any([signal, this.#closing.signal]);
    try {
      const input = hookInputOf(event, this.#session);
      const json = JSON.stringify(input);
      const toolUseId = 'toolUseId' in event ? event.toolUseId : undefined;
      const outcomes = await Promise.all(
        handlers.map((handler) =>
          runHandler(handler, event.name, {
            input,
            json,
            toolUseId,
            cwd: event.cwd,
            env: this.#env,
            signal: stop,
            check: this.#commandCheck,
          }),
        ),
      );
      return mergeOutcomes(outcomes);
    } catch (error) {
      // The contract: hooks never break the run. A bug here is reported, not thrown.
      const reason = messageOf(error);
      return { warnings: [`${event.name} hooks could not be run: ${reason}`] };
    }
  }
}

interface HandlerRun {
  input: unknown;
  json: string;
  toolUseId: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  check: SessionHooksOptions['commandCheck'];
}

async function runHandler(
  handler: CompiledHandler,
  event: HookEventName,
  run: HandlerRun,
): Promise<HookOutcome> {
  const { hook, label } = handler;
  if (typeof hook !== 'function') {
    const held = run.check?.(hook.command);
    if (held !== undefined) return { warnings: [`hook ${label}: ${held}`] };
    const result = await runCommandHook({
      command: hook.command,
      input: run.json,
      cwd: run.cwd,
      env: run.env,
      timeoutMs: handler.timeoutMs,
      signal: run.signal,
    });
    // A cancelled run needs no word on each hook it stopped.
    if (run.signal.aborted) return emptyOutcome();
    if (result.problem !== undefined) return { warnings: [`hook ${label}: ${result.problem}`] };
    const outcome = outcomeOfCommand(event, result, label);
    if (result.outputCut) {
      outcome.warnings.push(`hook ${label} printed more than 256 KiB; the rest was ignored`);
    }
    return outcome;
  }
  const timeout = AbortSignal.timeout(handler.timeoutMs);
  const signal = AbortSignal.any([run.signal, timeout]);
  try {
    const answer = await untilAborted(
      Promise.resolve(hook(run.input as never, run.toolUseId, { signal })),
      signal,
    );
    return outcomeOfJson(event, answer, label);
  } catch (error) {
    if (run.signal.aborted) return emptyOutcome();
    if (timeout.aborted) {
      return { warnings: [`hook ${label} did not finish within ${handler.timeoutMs / 1000} s`] };
    }
    const reason = messageOf(error);
    return { warnings: [`hook ${label} threw: ${reason}`] };
  }
}

/** The hooks an event runs: every matching group of every source, each command once. */
function handlersFor(sources: readonly CompiledHooks[], event: HookEvent): CompiledHandler[] {
  const subject = matcherSubject(event);
  const seen = new Set<unknown>();
  const handlers: CompiledHandler[] = [];
  for (const source of sources) {
    for (const group of source.get(event.name) ?? []) {
      if (subject !== undefined && !group.matches(subject)) continue;
      for (const handler of group.handlers) {
        const key = typeof handler.hook === 'function' ? handler.hook : handler.hook.command;
        if (seen.has(key)) continue;
        seen.add(key);
        handlers.push(handler);
      }
    }
  }
  return handlers;
}

/** A sub-agent definition's `Stop` hooks fire when it stops: its SubagentStop. */
function stopAsSubagentStop(hooks: CompiledHooks): CompiledHooks {
  const stop = hooks.get('Stop');
  if (!stop) return hooks;
  const renamed = new Map<HookEventName, readonly CompiledGroup[]>(hooks);
  renamed.delete('Stop');
  renamed.set('SubagentStop', [...(hooks.get('SubagentStop') ?? []), ...stop]);
  return renamed;
}

/** Rejects when the signal aborts, for a callback that does not listen to it. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
