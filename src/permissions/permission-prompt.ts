// Putting a tool call to a person (a terminal prompt, a library user's callback): what they are
// shown, what they answer, and that answer as a permission decision, with no wait past the run.
import type { PermissionDecision, PermissionRequest } from '../core/permission-policy.js';
import type { SuggestedRules } from './permission-rule.js';

/** What a person (a terminal prompt, a library user's callback) is asked to decide. */
export interface PermissionPrompt extends PermissionRequest {
  /** The tool's permission subject: the Bash command, the path relative to cwd. */
  subject: string | undefined;
  /** The call as people read it: `Bash(rm -rf build)`. */
  call: string;
  /** Rules to offer for "always allow"; pass one back as `remember`. */
  suggestions: SuggestedRules;
  /**
   * Set when the call crosses a line no rule opens (an isolated agent leaving its worktree): what
   * it crosses. Such a call is asked about every time; `remember` is ignored for it.
   */
  reason?: string;
}

export type PermissionAnswer =
  | {
      behavior: 'allow';
      /** Replaces the model's input when set. */
      input?: unknown;
      /** A rule to allow from now on in every agent of the run, e.g. `Bash(npm test:*)`. */
      remember?: string;
    }
  | {
      behavior: 'deny';
      /** Sent to the model as the tool's error result. */
      message: string;
    };

export type CanUseTool = (prompt: PermissionPrompt) => Promise<PermissionAnswer>;

/** A person's answer as a decision, and the rule they chose to allow from now on, if any. */
export interface PersonDecision {
  decision: PermissionDecision;
  remember?: string;
}

/**
 * Asks the person about a call and waits for the answer, or for the run to be cancelled, which
 * denies the call.
 */
export async function askPerson(
  canUseTool: CanUseTool,
  prompt: PermissionPrompt,
  signal: AbortSignal,
): Promise<PersonDecision> {
  const answer = await untilAborted(canUseTool(prompt), signal);
  if (answer === undefined) {
    const message = `The run was cancelled while waiting for permission to use ${prompt.call}.`;
    return { decision: { behavior: 'deny', message } };
  }
  if (answer.behavior === 'deny') {
    return { decision: { behavior: 'deny', message: answer.message } };
  }
  return {
    decision:
      answer.input === undefined
        ? { behavior: 'allow' }
        : { behavior: 'allow', input: answer.input },
    remember: answer.remember,
  };
}

/** Resolves with the promise's value, or undefined as soon as the signal aborts. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return undefined;
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
