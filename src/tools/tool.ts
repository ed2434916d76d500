// What a tool is: a plain object with a zod schema and one `call`. Built-ins, MCP tools and the
// Agent tool all have this shape; the loop treats them alike.
import type { z } from 'zod';
import type { AgentEvent, AgentRef } from '../loop/events.js';
import type { RunContext } from '../loop/run-context.js';
import type { FileStateCache } from './file-state.js';

export interface ToolContext {
  toolCallId: string;
  /** Aborted when the run is cancelled, a budget runs out, or this call times out. */
  signal: AbortSignal;
  /** The agent's working directory; relative paths resolve against it. */
  cwd: string;
  /** Directories file tools may touch (cwd first). Anything outside is refused. */
  allowedDirs: readonly string[];
  /** What this agent has read, so Write and Edit can refuse stale or unread files. */
  fileState: FileStateCache;
  /** The agent running this tool. */
  agent: AgentRef & { agentType: string };
  /** Reports progress (a `tool_delta`) while the tool runs. */
  progress(text: string): void;
  /** The calling agent's run, for tools that start agents of their own. */
  run: RunContext;
  /**
   * Forwards events into the calling agent's stream, for tools that run agents of their own.
   * Contract: events keep their own `agentId`; the loop does not rewrite them.
   */
  emit(event: AgentEvent): void;
}

/** What `call` returns: text for the model, or text flagged as an error the model can act on. */
export type ToolOutput = string | { output: string; isError?: boolean };

export interface Tool<Input = unknown> {
  name: string;
  /** Shown to the model: when to use the tool and what it returns. */
  description: string;
  inputSchema: z.ZodType<Input>;
  /**
   * Changes nothing and reads only inside the allowed directories; allowed without asking in
   * `default` and `plan` modes.
   */
  isReadOnly:
    | boolean
    | ((input: Input, scope: Pick<ToolContext, 'cwd' | 'allowedDirs'>) => boolean);
  /** May run at the same time as other calls of the same assistant message. */
  isConcurrencySafe: boolean;
  /** Longest a call may run before it is aborted and reported as timed out. */
  timeoutMs?: number;
  /**
   * What a permission rule `Name(specifier)` is matched against: a Bash command, a file path
   * relative to cwd. Without it only the bare rule `Name` applies.
   */
  permissionSubject?(input: Input, ctx: Pick<ToolContext, 'cwd'>): string;
  /** Contract: errors the model can fix are returned with `isError`; a throw becomes one too. */
  call(input: Input, ctx: ToolContext): Promise<ToolOutput>;
}

/**
 * Types a tool's `call` from its schema and returns it as a plain `Tool`, so tools of different
 * inputs sit in one list. Sound because the loop parses every input with `inputSchema` first.
 */
export function defineTool<Schema extends z.ZodType>(
  tool: Tool<z.output<Schema>> & { inputSchema: Schema },
): Tool {
  return tool as unknown as Tool;
}

/**
 * A failure that must end the calling agent instead of becoming an error result the model
 * could work around: a security check, a broken invariant. Every other throw is recoverable.
 */
export class FatalToolError extends Error {
  readonly fatal = true;
  static isInstance(error: unknown): error is FatalToolError {
    return (
      typeof error === 'object' && error !== null && (error as { fatal?: unknown }).fatal === true
    );
  }
}

/** An error result: text the model reads as the tool's failure and can act on. */
export function toolError(output: string): { output: string; isError: true } {
  return { output, isError: true };
}

export function isReadOnlyCall<Input>(
  tool: Tool<Input>,
  input: Input,
  scope: Pick<ToolContext, 'cwd' | 'allowedDirs'>,
): boolean {
  return typeof tool.isReadOnly === 'function' ? tool.isReadOnly(input, scope) : tool.isReadOnly;
}
