// The hooks at the two ends of an agent's run: when it takes its prompt (UserPromptSubmit, or
// SubagentStart for a sub-agent) and whenever it would end (Stop, or SubagentStop), where a hook
// may send it back to work, make its failure fatal, or judge its output for the handoff.
import type { AgentStatus } from '../core/events.js';
import {
  type HandoffVerdict,
  type HookAgent,
  type HookRunner,
  startEventOf,
  stopEventOf,
} from '../core/hook-runner.js';
import { hookContextBlock } from './hook-context.js';

/**
 * How often stop hooks may send an agent back to work in one run. A hook should let it stop
 * once `stop_hook_active` is true; one that never does must not keep it busy forever.
 */
export const MAX_STOP_HOOK_CONTINUATIONS = 10;

export interface LifecycleFacts {
  agent: HookAgent;
  cwd: string;
  /** The agent's cancel signal: hooks still run when a budget is used up, not when cancelled. */
  signal: AbortSignal;
}

export interface AdmittedPrompt {
  /** The prompt with the hooks' context; undefined when a hook refused it. */
  prompt?: string;
  /** Why the run ends before its first turn. */
  refused?: string;
  warnings: string[];
}

export async function promptHooks(
  hooks: HookRunner,
  facts: LifecycleFacts,
  prompt: string,
): Promise<AdmittedPrompt> {
  const name = startEventOf(facts.agent);
  const { agent, cwd, signal } = facts;
  const outcome = await hooks.run({ name, agent, cwd, prompt }, signal);
  const { warnings } = outcome;
  if (outcome.block !== undefined) {
    return { refused: `The prompt was blocked by a ${name} hook: ${outcome.block}`, warnings };
  }
  if (outcome.context === undefined) return { prompt, warnings };
  return { prompt: `${prompt}\n\n${hookContextBlock(name, outcome.context)}`, warnings };
}

export interface StoppingAgent {
  lastAssistantMessage: string;
  status: AgentStatus;
  error: string | undefined;
  /** How often stop hooks have sent it back to work already in this run. */
  continuations: number;
}

export interface StopDecision {
  /** The instruction the agent goes on with (only a completed agent goes on). */
  goOn?: string;
  /** The failure, reworded, when a hook made it fatal. */
  fatal?: string;
  handoff?: HandoffVerdict;
  warnings: string[];
}

export async function stopHooks(
  hooks: HookRunner,
  facts: LifecycleFacts,
  agent: StoppingAgent,
): Promise<StopDecision> {
  const name = stopEventOf(facts.agent);
  const outcome = await hooks.run(
    {
      name,
      agent: facts.agent,
      cwd: facts.cwd,
      lastAssistantMessage: agent.lastAssistantMessage,
      stopHookActive: agent.continuations > 0,
      status: agent.status,
      ...(agent.error ? { error: agent.error } : {}),
    },
    facts.signal,
  );
  const decision: StopDecision = { handoff: outcome.handoff, warnings: outcome.warnings };
  if (agent.status !== 'completed') {
    if (outcome.fatal !== undefined) {
      decision.fatal = `${agent.error} (made fatal by a ${name} hook: ${outcome.fatal})`;
    }
    return decision;
  }
  if (outcome.block === undefined) return decision;
  if (agent.continuations >= MAX_STOP_HOOK_CONTINUATIONS) {
    decision.warnings = [
      ...decision.warnings,
      `${name} hooks sent ${facts.agent.agentType} back to work ${MAX_STOP_HOOK_CONTINUATIONS} times in a row; it stops now.`,
    ];
    return decision;
  }
  decision.goOn = outcome.block;
  return decision;
}
