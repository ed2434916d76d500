// The hooks around one tool call: PreToolUse before the permission decision is used (its deny
// ends the call whatever the permission mode), PostToolUse or PostToolUseFailure once the tool
// has answered, and a Notification when a person is about to be asked.
import type { DistributiveOmit } from '../core/distributive-omit.js';
import type { AgentEvent } from '../core/events.js';
import type { HookEvent, HookOutcome } from '../core/hook-runner.js';
import type { PermissionRequest } from '../core/permission-policy.js';
import { toolError } from '../core/tool.js';
import type { ToolCallEnvironment } from './execute-tool-call.js';
import { hookContextBlock } from './hook-context.js';

type Emit = (event: AgentEvent) => void;

interface CallFacts {
  toolName: string;
  toolUseId: string;
  input: unknown;
}

export type BeforeToolCall =
  | {
      refused?: undefined;
      /** The hooks' replacement for the input; the caller checks it against the tool's schema. */
      updatedInput?: Record<string, unknown>;
      hookDecision?: PermissionRequest['hookDecision'];
    }
  | { refused: { output: string; isError: true; denial: string } };

export async function beforeToolCall(
  env: ToolCallEnvironment,
  call: CallFacts,
  emit: Emit,
): Promise<BeforeToolCall> {
  if (!env.hooks) return {};
  const outcome = await runHooks(env, emit, { name: 'PreToolUse', ...toolFields(call) });
  const permission = outcome.permission;
  if (permission?.decision === 'deny') {
    const why = `${call.toolName} was blocked by a PreToolUse hook: ${permission.reason}`;
    return {
      refused: {
        ...toolError(
          `${why}\nDo not try to get around it: do without it, or report that it is not allowed.`,
        ),
        denial: why,
      },
    };
  }
  return {
    updatedInput: outcome.updatedInput,
    hookDecision: permission && { behavior: permission.decision, reason: permission.reason },
  };
}

/** The tool's answer as the model reads it: a blocking hook's reason and hook context added. */
export async function afterToolCall(
  env: ToolCallEnvironment,
  call: CallFacts,
  result: { output: string; isError: boolean },
  emit: Emit,
): Promise<{ output: string; isError: boolean }> {
  if (!env.hooks) return result;
  const event = result.isError
    ? { name: 'PostToolUseFailure' as const, ...toolFields(call), error: result.output }
    : { name: 'PostToolUse' as const, ...toolFields(call), toolResponse: result.output };
  const outcome = await runHooks(env, emit, event);
  let { output, isError } = result;
  if (outcome.block !== undefined) {
    output += `\n\n[${event.name} hook: ${outcome.block}]`;
    isError = true;
  }
  if (outcome.context !== undefined)
    output += `\n\n${hookContextBlock(event.name, outcome.context)}`;
  return { output, isError };
}

/** What the permission policy calls before asking a person: Notification hooks, not awaited. */
export function notifyOnAsk(
  env: ToolCallEnvironment,
  emit: Emit,
): ((message: string) => void) | undefined {
  const { hooks } = env;
  if (!hooks) return undefined;
  return (message) => {
    const event: HookEvent = {
      ...base(env),
      name: 'Notification',
      message,
      notificationType: 'permission_prompt',
    };
    // The person should not wait for a notifier; its warnings arrive while they decide.
    void hooks.run(event, env.signal.signal).then((outcome) => warn(env, emit, outcome));
  };
}

async function runHooks(
  env: ToolCallEnvironment,
  emit: Emit,
  event: DistributiveOmit<HookEvent, 'agent' | 'cwd'>,
): Promise<HookOutcome> {
  const outcome = await env.hooks!.run({ ...base(env), ...event } as HookEvent, env.signal.signal);
  warn(env, emit, outcome);
  return outcome;
}

function warn(env: ToolCallEnvironment, emit: Emit, outcome: HookOutcome): void {
  for (const message of outcome.warnings) emit({ ...env.context.agent, type: 'warning', message });
}

function base(env: ToolCallEnvironment): { agent: HookEvent['agent']; cwd: string } {
  return { agent: env.context.agent, cwd: env.context.cwd };
}

function toolFields(call: CallFacts) {
  return { toolName: call.toolName, toolUseId: call.toolUseId, toolInput: call.input };
}
