// The hooks of an agent that runs a definition: the session's, plus the definition's own
// (active only while that agent runs), compiled once per definition.
import type { HookRunner } from '../core/hook-runner.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { type CompiledHooks, compileHookSettings, formatHookPath } from '../hooks/hook-settings.js';
import type { SessionHooks } from '../hooks/session-hooks.js';

const compiled = new WeakMap<AgentDefinition, CompiledHooks>();

export function agentHookRunner(
  session: SessionHooks | undefined,
  definition: AgentDefinition | undefined,
  options: { subagent: boolean; promptContext?: string },
): HookRunner | undefined {
  if (!session) return undefined;
  const own = definition?.hooks ? definitionHooks(definition) : undefined;
  return session.runnerFor({ own, ...options });
}

/** Whether any definition brings hooks of its own: then the session must run hooks at all. */
export function anyDefinitionHooks(definitions: Iterable<AgentDefinition>): boolean {
  for (const definition of definitions) if (definition.hooks) return true;
  return false;
}

/**
 * @throws ConfigError for hooks that were never checked (definitions built by hand rather than
 * loaded or passed through `agents`), naming the first bad entry.
 */
function definitionHooks(definition: AgentDefinition): CompiledHooks {
  let hooks = compiled.get(definition);
  if (hooks) return hooks;
  const where = (path: readonly (string | number)[]) =>
    `agent ${definition.name}: hooks.${formatHookPath(path)}`;
  hooks = compileHookSettings(definition.hooks, { where, callbacks: true }).hooks;
  compiled.set(definition, hooks);
  return hooks;
}
