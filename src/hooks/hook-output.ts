// What a hook answers and what it means for its event: a command's exit code and stdout, or
// the object a library callback returns, in Claude Code's JSON shape. Hook output is hostile
// input: anything malformed is a warning naming the hook, never a crash and never a decision.
import type { HookEventName, HookOutcome } from '../core/hook-runner.js';

/** The JSON a hook may print on stdout (exit 0) or a callback may return. */
export interface HookJsonOutput {
  /** `false` asks Claude Code to stop entirely; warren does not support it and warns. */
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  /** A message for the person, shown as a warning. */
  systemMessage?: string;
  /**
   * `block`: PostToolUse and PostToolUseFailure (the reason reaches the model), Stop and
   * SubagentStop (the agent goes on with the reason), UserPromptSubmit (the prompt is refused).
   * `approve` and `block` on PreToolUse are Claude Code's older allow and deny.
   */
  decision?: 'block' | 'approve';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName?: HookEventName;
    /** PreToolUse. */
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    /** PreToolUse: replaces the tool's input (checked against its schema again). */
    updatedInput?: Record<string, unknown>;
    /** UserPromptSubmit, SubagentStart, SessionStart, PostToolUse, PostToolUseFailure. */
    additionalContext?: string;
    /** SubagentStop, warren's own: may the output reach the parent (the handoff check)? */
    handoffDecision?: 'allow' | 'flag' | 'block';
    handoffDecisionReason?: string;
    /** SubagentStop of a failed sub-agent, warren's own: end the whole run. */
    onFailure?: 'fatal' | 'recoverable';
  };
}

/** What a command hook did. */
export interface CommandReply {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Longest text a hook may hand the model or a person; the rest is cut. */
export const MAX_HOOK_TEXT = 10_000;

const BLOCKING_EVENTS: ReadonlySet<HookEventName> = new Set([
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);

const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set([
  'UserPromptSubmit',
  'SubagentStart',
  'SessionStart',
  'PostToolUse',
  'PostToolUseFailure',
]);

/** Events whose plain (not JSON) stdout is context for the model, as in Claude Code. */
const PLAIN_CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set([
  'UserPromptSubmit',
  'SessionStart',
]);

export function emptyOutcome(): HookOutcome {
  return { warnings: [] };
}

/** Exit 0: go on, stdout may hold decisions; 2: block with stderr; anything else: a warning. */
export function outcomeOfCommand(
  event: HookEventName,
  reply: CommandReply,
  label: string,
): HookOutcome {
  if (reply.exitCode === 2) return outcomeOfExit2(event, reply.stderr, label);
  if (reply.exitCode !== 0) {
    const detail = firstLine(reply.stderr);
    return warn(
      `hook ${label} failed with exit code ${reply.exitCode}${detail ? `: ${detail}` : ''}`,
    );
  }
  const stdout = reply.stdout.trim();
  if (stdout === '') return emptyOutcome();
  if (stdout.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      return warn(
        `hook ${label} printed output that starts like JSON but is not valid JSON; it was ignored`,
      );
    }
    return outcomeOfJson(event, json, label);
  }
  if (PLAIN_CONTEXT_EVENTS.has(event)) return { context: cut(stdout), warnings: [] };
  return emptyOutcome();
}

function outcomeOfExit2(event: HookEventName, stderr: string, label: string): HookOutcome {
  const reason = cut(stderr.trim()) || `blocked by hook ${label} (it gave no reason)`;
  if (event === 'PreToolUse') return { permission: { decision: 'deny', reason }, warnings: [] };
  if (BLOCKING_EVENTS.has(event)) return { block: reason, warnings: [] };
  return warn(`hook ${label} exited with 2, which cannot block ${event}: ${firstLine(reason)}`);
}

/** A hook's JSON answer, field by field; wrong fields are reported and left out. */
export function outcomeOfJson(event: HookEventName, json: unknown, label: string): HookOutcome {
  if (json === undefined || json === null) return emptyOutcome();
  if (!isRecord(json))
    return warn(`hook ${label} answered with something other than a JSON object`);
  const outcome = emptyOutcome();
  const problem = (what: string) => outcome.warnings.push(`hook ${label}: ${what}; it was ignored`);

  if (typeof json.systemMessage === 'string' && json.systemMessage.trim() !== '') {
    outcome.warnings.push(`hook ${label} says: ${cut(json.systemMessage.trim())}`);
  }
  if (json.continue === false)
    problem('`continue: false` (stop everything) is not supported by warren');

  const reason = optionalText(json.reason);
  if (json.decision === 'block') {
    if (event === 'PreToolUse') {
      outcome.permission = { decision: 'deny', reason: reason ?? `denied by hook ${label}` };
    } else if (BLOCKING_EVENTS.has(event)) {
      outcome.block = reason ?? `blocked by hook ${label} (it gave no reason)`;
    } else {
      problem(`\`decision: "block"\` has no effect on ${event}`);
    }
  } else if (json.decision === 'approve' && event === 'PreToolUse') {
    outcome.permission = { decision: 'allow', reason: reason ?? `allowed by hook ${label}` };
  } else if (json.decision !== undefined) {
    problem(`\`decision\` must be "block"${event === 'PreToolUse' ? ' or "approve"' : ''}`);
  }

  const specific = json.hookSpecificOutput;
  if (specific === undefined) return outcome;
  if (!isRecord(specific)) {
    problem('`hookSpecificOutput` is not an object');
    return outcome;
  }
  if (specific.hookEventName !== undefined && specific.hookEventName !== event) {
    problem(`\`hookSpecificOutput\` is for ${String(specific.hookEventName)}, not ${event}`);
    return outcome;
  }
  readSpecific(event, specific, outcome, label, problem);
  return outcome;
}

function readSpecific(
  event: HookEventName,
  specific: Record<string, unknown>,
  outcome: HookOutcome,
  label: string,
  problem: (what: string) => void,
): void {
  const only = (field: string, events: string) => problem(`\`${field}\` applies to ${events} only`);
  const { permissionDecision, updatedInput, additionalContext, handoffDecision } = specific;
  if (permissionDecision !== undefined) {
    if (event !== 'PreToolUse') only('permissionDecision', 'PreToolUse');
    else if (
      permissionDecision === 'allow' ||
      permissionDecision === 'deny' ||
      permissionDecision === 'ask'
    ) {
      const reason =
        optionalText(specific.permissionDecisionReason) ?? `${permissionDecision} by hook ${label}`;
      outcome.permission = { decision: permissionDecision, reason };
    } else problem('`permissionDecision` must be "allow", "deny" or "ask"');
  }
  if (updatedInput !== undefined) {
    if (event !== 'PreToolUse') only('updatedInput', 'PreToolUse');
    else if (isRecord(updatedInput)) outcome.updatedInput = updatedInput;
    else problem('`updatedInput` must be an object: the whole new input of the tool');
  }
  if (additionalContext !== undefined) {
    if (!CONTEXT_EVENTS.has(event)) only('additionalContext', [...CONTEXT_EVENTS].join(', '));
    else if (typeof additionalContext === 'string') {
      if (additionalContext.trim() !== '') outcome.context = cut(additionalContext.trim());
    } else problem('`additionalContext` must be a string');
  }
  if (handoffDecision !== undefined) {
    if (event !== 'SubagentStop') only('handoffDecision', 'SubagentStop');
    else if (
      handoffDecision === 'allow' ||
      handoffDecision === 'flag' ||
      handoffDecision === 'block'
    ) {
      const reason = optionalText(specific.handoffDecisionReason);
      outcome.handoff = { decision: handoffDecision, ...(reason ? { reason } : {}) };
    } else problem('`handoffDecision` must be "allow", "flag" or "block"');
  }
  if (specific.onFailure !== undefined) {
    if (event !== 'SubagentStop') only('onFailure', 'SubagentStop');
    else if (specific.onFailure === 'fatal') outcome.fatal = `hook ${label}`;
    else if (specific.onFailure !== 'recoverable')
      problem('`onFailure` must be "fatal" or "recoverable"');
  }
}

function warn(message: string): HookOutcome {
  return { warnings: [message] };
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? cut(value.trim()) : undefined;
}

function cut(text: string): string {
  if (text.length <= MAX_HOOK_TEXT) return text;
  return `${text.slice(0, MAX_HOOK_TEXT)}… [${text.length - MAX_HOOK_TEXT} more characters cut]`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
