// One tool call, from the model's raw arguments to the result the model reads back. Every
// failure the model could fix (unknown tool, bad JSON, schema, denial, throw, timeout) ends
// here as an error result; only a FatalToolError or a cancelled run leaves by throwing.

import type { z } from 'zod';
import type { AbortFanOut } from '../core/abort-fan-out.js';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { HookRunner } from '../core/hook-runner.js';
import type { ToolCallPart, ToolResultPart } from '../core/messages.js';
import { nobodyToAsk, type PermissionPolicy } from '../core/permission-policy.js';
import type { RunContext } from '../core/run-context.js';
import type { StepRunner } from '../core/step-runner.js';
import {
  FatalToolError,
  type SpawnToolContext,
  type Tool,
  type ToolContext,
  type ToolOutput,
  toolError,
} from '../core/tool.js';
import {
  afterToolCall,
  type BeforeToolCall,
  beforeToolCall,
  notifyOnAsk,
} from './tool-call-hooks.js';
import { capToolOutput } from './tool-output-cap.js';

/** How long a tool that was told to stop may take to do so before the loop leaves it. */
const SETTLE_MS = 1000;
/**
 * The same for a tool that starts agents, once the run is cancelled. A sub-agent ends by itself
 * within SETTLE_MS (it leaves its own tools then), and its result is worth the wait: leaving it
 * earlier would lose its status and its last records. This only bounds one that does not end.
 */
const SPAWN_SETTLE_MS = 10_000;

export interface ToolCallEnvironment {
  tools: ReadonlyMap<string, Tool>;
  /** Tools the model is shown but this agent may not use (a forked child sees its parent's). */
  withheld?: ReadonlySet<string>;
  permissions: PermissionPolicy | undefined;
  /** The agent's hooks: PreToolUse before the permission decision is used, PostToolUse after. */
  hooks: HookRunner | undefined;
  /** What every call of this agent shares; the per-call fields are added here. */
  context: Omit<ToolContext, 'toolCallId' | 'signal' | 'progress'>;
  /** The calling run, for tools that start agents: made on first use (most agents start none). */
  run: () => RunContext;
  /** Aborts on cancel, interrupt or when the time budget ends: what tools are asked to stop on. */
  signal: AbortFanOut;
  /** Aborts on cancel, or an interrupt of the turn: what tools that start agents follow. */
  cancel: AbortFanOut;
  /** Aborts when the agent's wind-down window closes: nothing is waited for after that. */
  ended: AbortFanOut | undefined;
  timeoutMs: number;
  /** Records an event of this agent as it is made (the run's `onEvent`). */
  record: (event: AgentEvent) => void;
  /** Runs each call as a step (journaled by a durable engine's runner). */
  steps: StepRunner;
}

const NO_HOOKS: BeforeToolCall = {};

/** Where a call's events go: the run's sink. */
type Emit = (event: AgentEvent) => void;

export async function executeToolCall(
  call: ToolCallPart,
  env: ToolCallEnvironment,
  emit: Emit,
): Promise<ToolResultPart> {
  const { agentId, parentId, depth } = env.context.agent;
  const ref: AgentRef = { agentId, parentId, depth };
  const { toolCallId, toolName } = call;
  const started = Date.now();
  // The call's own events are recorded as they happen; a child's (forwarded by `emit` from a
  // tool that starts agents) were recorded by the child.
  const own: Emit = (event) => {
    env.record(event);
    emit(event);
  };
  own({ ...ref, type: 'tool_start', toolCallId, toolName, input: call.input });
  const { output, isError, denial } = capToolOutput(toolName, await runTool(call, env, emit, own));
  const result: ToolResultPart = { type: 'tool-result', toolCallId, toolName, output, isError };
  own({
    ...ref,
    type: 'tool_end',
    toolCallId,
    toolName,
    output,
    isError,
    durationMs: Date.now() - started,
    ...(denial !== undefined && { denial }),
  });
  return result;
}

async function runTool(
  call: ToolCallPart,
  env: ToolCallEnvironment,
  emit: Emit,
  own: Emit,
): Promise<{ output: string; isError: boolean; denial?: string }> {
  const tool = env.tools.get(call.toolName);
  if (!tool) {
    const names = [...env.tools.keys()].join(', ') || 'none';
    if (env.withheld?.has(call.toolName)) {
      return toolError(
        `${call.toolName} is not available to this agent (its definition does not grant it); you see it only because you continue another agent's conversation. Available tools: ${names}.`,
      );
    }
    return toolError(`Unknown tool "${call.toolName}". Available tools: ${names}.`);
  }
  if (typeof call.input === 'string') {
    return toolError(
      `The arguments for ${tool.name} are not valid JSON: ${truncate(call.input, 200)}. ` +
        'Send them again as one JSON object that matches the tool schema.',
    );
  }
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) {
    return toolError(
      `Invalid arguments for ${tool.name}: ${problemsOf(parsed.error)}. Fix them and call it again.`,
    );
  }
  let input = parsed.data;
  const facts = { toolName: tool.name, toolUseId: call.toolCallId, input };
  // Without hooks, no await: a tool call pays nothing for hooks it does not have.
  const before = env.hooks ? await beforeToolCall(env, facts, own) : NO_HOOKS;
  if (before.refused) return before.refused;
  if (before.updatedInput) {
    const updated = tool.inputSchema.safeParse(before.updatedInput);
    if (!updated.success) {
      return toolError(
        `A PreToolUse hook replaced the input of ${tool.name} with one that does not fit its schema (${problemsOf(updated.error)}), so it was not run.`,
      );
    }
    input = updated.data;
  }
  if (env.permissions) {
    const asked = permissionWait(env, call, own);
    const decision = await env.permissions
      .decide({
        tool,
        input,
        cwd: env.context.cwd,
        allowedDirs: env.context.allowedDirs,
        agent: env.context.agent,
        signal: env.signal.signal,
        hookDecision: before.hookDecision,
        onAsk: asked.onAsk(notifyOnAsk(env, own)),
      })
      .finally(asked.answered);
    if (decision.behavior === 'deny') {
      return { ...toolError(decision.message), denial: decision.notice ?? decision.message };
    }
    if (decision.input !== undefined) input = decision.input;
  } else if (before.hookDecision?.behavior === 'ask') {
    const refusal = nobodyToAsk(tool.name, before.hookDecision.reason);
    return { ...toolError(refusal), denial: refusal };
  }
  const result = await callWithTimeout(tool, input, call.toolCallId, env, { emit, own });
  return env.hooks ? afterToolCall(env, { ...facts, input }, result, own) : result;
}

/** While a person is asked about the call, the agent is blocked: said before and after. */
function permissionWait(env: ToolCallEnvironment, call: ToolCallPart, own: Emit) {
  const { agentId, parentId, depth } = env.context.agent;
  const { toolCallId, toolName } = call;
  let waiting = false;
  const say = (now: boolean) => {
    waiting = now;
    own({ agentId, parentId, depth, type: 'permission_wait', toolCallId, toolName, waiting });
  };
  return {
    onAsk: (notify: ((message: string) => void) | undefined) => (message: string) => {
      say(true);
      notify?.(message);
    },
    answered: () => {
      if (waiting) say(false);
    },
  };
}

function problemsOf(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`)
    .join('; ');
}

async function callWithTimeout(
  tool: Tool,
  input: unknown,
  toolCallId: string,
  env: ToolCallEnvironment,
  { emit, own }: { emit: Emit; own: Emit },
): Promise<{ output: string; isError: boolean }> {
  const timeoutMs = tool.timeoutMs ?? env.timeoutMs;
  // Only a call that can time out needs a signal of its own; the others share the agent's.
  const call = Number.isFinite(timeoutMs) ? new AbortController() : undefined;
  let timedOut = false;
  const leave = leaveWhenStopped(tool, env, () => call?.signal.reason);
  const unfollow = call ? env.signal.add(() => call.abort(env.signal.signal.reason)) : undefined;
  const timer =
    call &&
    setTimeout(() => {
      timedOut = true;
      call.abort();
      leave.soon();
    }, timeoutMs);
  const { agentId, parentId, depth } = env.context.agent;
  const signal = call?.signal ?? env.signal.signal;
  const { permissions } = env;
  // A tool that starts agents also sees the run and where its children's events go: in the same
  // object, not a second copy of it (a parent starting a thousand children holds a thousand).
  const spawning = tool.spawnsAgents ? { run: env.run(), emit } : undefined;
  const context: ToolContext = {
    ...env.context,
    toolCallId,
    signal,
    progress: (text) =>
      own({ agentId, parentId, depth, type: 'tool_delta', toolCallId, toolName: tool.name, text }),
    ...(permissions && {
      askPermission: (subject: string) =>
        permissions.decide({
          tool: { ...tool, permissionSubject: () => subject } as Tool,
          input,
          cwd: env.context.cwd,
          allowedDirs: env.context.allowedDirs,
          agent: env.context.agent,
          signal,
        }),
    }),
    ...spawning,
  };
  const calling = tool.spawnsAgents
    ? tool.call(input, context as SpawnToolContext)
    : tool.call(input, context);
  try {
    const output = await leave.unlessAbandoned(calling);
    return normalize(output);
  } catch (error) {
    if (FatalToolError.isInstance(error)) throw error;
    env.signal.signal.throwIfAborted();
    if (timedOut) return toolError(`${tool.name} timed out after ${timeoutMs} ms and was stopped.`);
    return toolError(`${tool.name} failed: ${messageOf(error)}`);
  } finally {
    clearTimeout(timer);
    unfollow?.();
    leave.stop();
  }
}

/**
 * A tool that ignores its signal must not hold the loop: once told to stop (or timed out) it has
 * a moment to finish, then the loop goes on without it (`unlessAbandoned` rejects). A plain tool
 * is told by the stop signal. A tool that starts agents only by a cancel: at the time budget its
 * sub-agents wind down inside their own, earlier windows. Nothing is waited for once this
 * agent's own window has closed.
 */
function leaveWhenStopped(
  tool: Tool,
  env: ToolCallEnvironment,
  callReason: () => unknown,
): {
  unlessAbandoned<T>(calling: Promise<T>): Promise<T>;
  soon(): void;
  stop(): void;
} {
  const settleMs = tool.spawnsAgents ? SPAWN_SETTLE_MS : SETTLE_MS;
  let settle: NodeJS.Timeout | undefined;
  let abandoned: { reason: unknown } | undefined;
  let abandon: ((reason: unknown) => void) | undefined;
  // Before the call is handed in, abandoning is remembered; after, it fails the wait.
  const leave = () => {
    abandoned ??= { reason: env.signal.signal.reason ?? callReason() };
    abandon?.(abandoned.reason);
  };
  const soon = () => {
    settle ??= setTimeout(leave, settleMs);
  };
  const unwatch = (tool.spawnsAgents ? env.cancel : env.signal).add(soon);
  const unwatchEnd = env.ended?.add(leave);
  return {
    // One promise that settles with the call or when it is abandoned: no race per call.
    unlessAbandoned: <T>(calling: Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        abandon = reject;
        if (abandoned !== undefined) reject(abandoned.reason);
        calling.then(resolve, reject);
      }),
    soon,
    stop() {
      clearTimeout(settle);
      unwatch();
      unwatchEnd?.();
    },
  };
}

function normalize(output: ToolOutput): { output: string; isError: boolean } {
  if (typeof output === 'string') return { output, isError: false };
  return { output: output.output, isError: output.isError === true };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
