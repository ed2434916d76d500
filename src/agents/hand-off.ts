// Where a finished child's output becomes its parent's tool result: the handoff check (the
// built-in escaping, the library's `handoffCheck`, the verdict of its SubagentStop hooks), its
// structured value as JSON text, the cut to size, and a note when it stopped early or failed.
import type { RunResult } from '../core/events.js';
import { FatalToolError, type ToolOutput, toolError } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { neutraliseHandoff, runHandoffCheck } from '../hooks/handoff-check.js';
import { strictestHandoff } from '../hooks/merge-outcomes.js';
import { framedOutput } from './framed-output.js';
import type { SubagentRuntime } from './subagent-runtime.js';

export interface HandedOff {
  /** What the parent model reads. */
  output: ToolOutput;
  /** For people: the output was withheld or flagged. */
  warnings: string[];
}

/**
 * @param options.frame the parent reads it as its Agent call's result: the child's words go under
 *   a sub-agent header, indented (framed-output.ts). A background child's are framed by its
 *   `<task-notification>` instead, and its task record keeps them as written.
 */
export async function handOff(
  result: RunResult,
  runtime: SubagentRuntime,
  signal: AbortSignal,
  options: { frame?: boolean } = {},
): Promise<HandedOff> {
  const type = result.agentType;
  const neutral = neutraliseHandoff(result.result);
  const check = runtime.handoffCheck;
  const verdict = strictestHandoff([
    result.handoff,
    check &&
      (await runHandoffCheck(
        check,
        {
          agentId: result.agentId,
          parentId: result.parentId,
          agentType: type,
          depth: result.depth,
          text: result.result,
          ...(result.structuredOutput === undefined
            ? {}
            : { structuredOutput: result.structuredOutput }),
          escaped: neutral.found,
        },
        signal,
      )),
  ]);
  const reason = verdict?.reason ?? 'no reason given';
  if (verdict?.decision === 'block') {
    return {
      output: toolError(
        `The ${type} agent's output was withheld by the handoff check: ${reason}. Its transcript keeps it for a person to review.`,
      ),
      warnings: [
        `the handoff check withheld the output of ${type} agent ${result.agentId}: ${reason}`,
      ],
    };
  }
  // A structured value is passed whole: cut short, it would no longer be the JSON it claims.
  const structured = result.structuredOutput !== undefined;
  const checked = structured
    ? neutral.text
    : truncate(neutral.text, runtime.resultMaxChars, () => transcriptOf(result, runtime));
  const text = options.frame
    ? framed(checked, neutral.found.length > 0, result, structured)
    : checked;
  if (verdict?.decision === 'flag') {
    return {
      output: outputFor(
        result,
        `[warren: the handoff check flagged this output: ${reason}. Check it before relying on it.]\n${text}`,
      ),
      warnings: [
        `the handoff check flagged the output of ${type} agent ${result.agentId}: ${reason}`,
      ],
    };
  }
  return { output: outputFor(result, text), warnings: [] };
}

/** What the parent model reads: the child's text, with a note if it stopped early or failed. */
function outputFor(result: RunResult, text: string): ToolOutput {
  const type = result.agentType;
  switch (result.status) {
    case 'completed':
      return text || `(The ${type} agent finished without a final message.)`;
    case 'max_turns':
    case 'budget':
      return `${text}\n\n[Note: the ${type} agent was stopped early: ${result.error} The text above is the report it gave then.]`;
    default: {
      const what =
        result.status === 'cancelled'
          ? 'was cancelled'
          : result.status === 'stalled'
            ? 'stalled'
            : result.status === 'no_progress'
              ? 'made no progress'
              : 'failed';
      const last = text ? `\n\nIts last message:\n${text}` : '';
      return toolError(`The ${type} agent ${what}: ${result.error ?? 'no reason given'}${last}`);
    }
  }
}

/** The child's words framed; warren's own escape note (its first line, if any) stays outside. */
function framed(text: string, noted: boolean, result: RunResult, structured: boolean): string {
  const cut = noted ? text.indexOf('\n') : -1;
  const [note, words] = cut < 0 ? ['', text] : [`${text.slice(0, cut)}\n`, text.slice(cut + 1)];
  return `${note}${framedOutput(words, { agentType: result.agentType, structured })}`;
}

function transcriptOf(result: RunResult, runtime: SubagentRuntime): string {
  const transcript = runtime.transcriptPathFor(result.agentId);
  return transcript ? `the transcript ${transcript}` : `the transcript of agent ${result.agentId}`;
}

function truncate(text: string, max: number, where: () => string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[Truncated: ${text.length - max} of ${text.length} characters left out. The full text is in ${where()}.]`;
}

/** The output with `note` after it, an error staying an error. */
export function withNote(output: ToolOutput, note: string): ToolOutput {
  if (typeof output === 'string') return `${output}\n\n${note}`;
  return { ...output, output: `${output.output}\n\n${note}` };
}

/** A stopped child's output, with what it was still writing (escaped like its other text). */
export function withPartial(output: ToolOutput, partial: string): ToolOutput {
  if (!partial || typeof output === 'string') return output;
  const cut = `\n\nWhat it was writing when it stopped:\n${neutraliseHandoff(partial).text}`;
  return { ...output, output: `${output.output}${cut}` };
}

/**
 * Before a waiting parent reads its child: a parent being cancelled too sees its own
 * cancellation, not a child failure; a fatal failure, or any failure of a child whose definition
 * says `onFailure: fatal`, ends the parent's run. `where` names the child in that error.
 */
export function throwIfFatal(
  result: RunResult,
  definition: Pick<AgentDefinition, 'name' | 'onFailure'>,
  parentCancel: AbortSignal,
  where: string,
): void {
  parentCancel.throwIfAborted();
  const type = definition.name;
  if (result.fatal) throw new FatalToolError(`${type} agent: ${result.error}`);
  if (definition.onFailure === 'fatal' && failed(result)) {
    throw new FatalToolError(
      `${type} agent at ${where} ${result.status === 'failed' ? 'failed' : `stopped early (${result.status})`}, and its definition makes any failure fatal (onFailure: fatal): ${result.error}`,
    );
  }
}

/** Not completed, and not because its parent is being cancelled. */
export function failed(result: RunResult): boolean {
  return result.status !== 'completed' && result.status !== 'cancelled';
}
