// A run inside its session's hooks: which hooks the session has (settings files, the library's,
// definitions' own), SessionStart before the main agent (its context goes with the first
// prompt), SessionEnd after it however it ends, and every hook stopped when the run is over.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { AgentEvent, AgentRef, RunResult } from '../core/events.js';
import type { HookRunner } from '../core/hook-runner.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import {
  type CompiledHooks,
  compileHookSettings,
  formatHookPath,
  type HookSettings,
} from '../hooks/hook-settings.js';
import { SessionHooks } from '../hooks/session-hooks.js';
import { modelName } from '../model/pricing.js';
import { agentHookRunner, anyDefinitionHooks } from './agent-hooks.js';

export interface SessionHookSources {
  /** The library's hooks: callbacks or commands. */
  hooks?: HookSettings;
  /** Hooks already checked, from settings files; they run before `hooks`. */
  settingsHooks?: readonly CompiledHooks[];
  /**
   * The session's id: hooks' `session_id`, and `session.id` on trace spans. Default: a fresh
   * one for the run (a host's session names its own: transcripts and `--resume` use it).
   */
  sessionId?: string;
  transcriptPathFor?: (agentId: string) => string | undefined;
  /** The project folder (the run's working directory). */
  cwd?: string;
  /**
   * Asked before each command hook runs: a reason not to run it (the script a trusted project's
   * hook names changed during the run), or undefined to run it.
   */
  hookCommandCheck?: (command: string) => string | undefined;
}

export interface SessionHookSetup {
  hooks: SessionHooks;
  /** What checking the library's hooks found (Claude Code events warren does not fire). */
  warnings: string[];
}

/**
 * The session's hooks; undefined when no agent of the run has any, so such a run does no hook
 * work at all.
 * @throws ConfigError for a bad entry of the library's hooks
 */
export function sessionHooksOf(
  sources: SessionHookSources & { cwd: string; sessionId: string },
  mainAgentId: string,
  definitions: Iterable<AgentDefinition>,
): SessionHookSetup | undefined {
  const where = (path: readonly (string | number)[]) => `query hooks.${formatHookPath(path)}`;
  const own = sources.hooks && compileHookSettings(sources.hooks, { where, callbacks: true });
  const all = [...(sources.settingsHooks ?? []), ...(own ? [own.hooks] : [])];
  const warnings = own?.warnings ?? [];
  const any = all.some((hooks) => hooks.size > 0) || anyDefinitionHooks(definitions);
  if (!any && warnings.length === 0) return undefined;
  const hooks = new SessionHooks({
    hooks: all,
    sessionId: sources.sessionId,
    mainAgentId,
    transcriptPathFor: sources.transcriptPathFor,
    projectDir: sources.cwd,
    commandCheck: sources.hookCommandCheck,
  });
  return { hooks, warnings };
}

export interface MainAgentFacts {
  ref: AgentRef;
  agentType: string;
  path: string;
  cwd: string;
  model: LanguageModelV4 | PromiseLike<LanguageModelV4>;
  /** Whether the run continues an earlier conversation (SessionStart's `source`). */
  resumed: boolean;
  /** The run's cancel signal: SessionStart hooks stop with it. */
  signal: AbortSignal;
  /** The definition the main agent runs, whose own hooks join the session's. */
  definition: AgentDefinition | undefined;
  /** The run's `onEvent`: the hooks' warnings, made outside the loop, are recorded there too. */
  onEvent?: ((event: AgentEvent) => void) | undefined;
}

/** @param start starts the main agent's run with the hook runner it is to use */
export async function* runInSession(
  session: SessionHookSetup,
  main: MainAgentFacts,
  start: (hooks: HookRunner | undefined) => AsyncGenerator<AgentEvent, RunResult>,
): AsyncGenerator<AgentEvent, RunResult> {
  const { hooks } = session;
  const { ref, cwd } = main;
  const agent = { ...ref, agentType: main.agentType, path: main.path };
  const end = () => hooks.end(agent, { cwd, reason: 'other' });
  let ended = false;
  try {
    const source = main.resumed ? 'resume' : 'startup';
    const model = modelName(await main.model);
    const started = await hooks.start(agent, { cwd, source, model }, main.signal);
    const runner = agentHookRunner(hooks, main.definition, {
      subagent: false,
      promptContext: started.context,
    });
    const run = start(runner);
    const first = await run.next();
    if (first.done) return first.value;
    yield first.value;
    // After run_start, so every reader already knows the agent they belong to.
    for (const message of [...session.warnings, ...started.warnings]) {
      yield recorded(main, { ...ref, type: 'warning', message });
    }
    const result = yield* run;
    ended = true;
    for (const message of (await end()).warnings) {
      yield recorded(main, { ...ref, type: 'warning', message });
    }
    return result;
  } finally {
    if (!ended) await end();
    await hooks.close();
  }
}

/** An event made outside the loop, recorded as it is made, as the loop's own are. */
function recorded(main: MainAgentFacts, event: AgentEvent): AgentEvent {
  main.onEvent?.(event);
  return event;
}
