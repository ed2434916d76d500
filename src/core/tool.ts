// What a tool is: a plain object with a zod schema and one `call`. Built-ins, MCP tools and the
// tools that start agents all have this shape; the loop treats them alike.
import type { z } from 'zod';
import type { CommandSandbox } from './command-sandbox.js';
import { hasErrorMark } from './error-mark.js';
import type { AgentEvent, AgentRef } from './events.js';
import type { FileState } from './file-state.js';
import type { PermissionDecision } from './permission-policy.js';
import type { RunContext } from './run-context.js';

/** Who an agent is, as tools and permission prompts see it. */
export type AgentIdentity = AgentRef & {
  agentType: string;
  /** Its path in the tree (see the `run_start` event). */
  path: string;
  /** Runs in the background (or below an agent that does): nobody waits on it turn by turn. */
  background?: boolean;
};

export interface ToolContext {
  toolCallId: string;
  /** Aborted when the run is cancelled, a budget runs out, or this call times out. */
  signal: AbortSignal;
  /** The agent's working directory; relative paths resolve against it. */
  cwd: string;
  /** Directories file tools may touch (cwd first). Anything outside is refused. */
  allowedDirs: readonly string[];
  /** What this agent has read, so Write and Edit can refuse stale or unread files. */
  fileState: FileState;
  /** The agent running this tool, with its path in the tree (see the `run_start` event). */
  agent: AgentIdentity;
  /** Reports progress (a `tool_delta`) while the tool runs. */
  progress(text: string): void;
  /**
   * Asks the agent's permission policy about this call once more, under another permission
   * subject: for what a tool learns only while it runs (WebFetch: that the host it was allowed
   * to fetch resolves to a private address). Absent when the agent has no policy.
   */
  askPermission?(subject: string): Promise<PermissionDecision>;
  /**
   * Where shell commands run: the run's operating-system sandbox. Absent only when the sandbox
   * was turned off explicitly (`--no-sandbox`, `sandbox: false`) or for a bare agent loop.
   */
  sandbox?: CommandSandbox;
}

/** What a tool that starts agents gets besides: the calling run, and its event stream. */
export interface SpawnToolContext extends ToolContext {
  run: RunContext;
  /**
   * Forwards events into the calling agent's stream.
   * Contract: events keep their own `agentId`; the loop does not rewrite them.
   */
  emit(event: AgentEvent): void;
}

/** What `call` returns: text for the model, or text flagged as an error the model can act on. */
export type ToolOutput = string | { output: string; isError?: boolean };

interface ToolFields<Input> {
  name: string;
  /** Shown to the model: when to use the tool and what it returns. */
  description: string;
  /**
   * Checks a call's input. May be a getter: the built-in tools make theirs on first use, since
   * the model is shown their `jsonSchema` (start-up builds no schema a run may never check).
   */
  inputSchema: z.ZodType<Input>;
  /**
   * The input's JSON Schema exactly as the model is to see it, sent instead of one derived from
   * `inputSchema` at run time: an MCP server's own (its `inputSchema` then only checks that the
   * input has the right overall shape), or a built-in tool's, made ahead of time from its
   * `inputSchema` (tools/tool-json-schemas.ts).
   */
  jsonSchema?: Readonly<Record<string, unknown>>;
  /**
   * Changes nothing and reads only inside the allowed directories; allowed without asking in
   * `default` and `plan` modes.
   */
  isReadOnly:
    | boolean
    | ((input: Input, scope: Pick<ToolContext, 'cwd' | 'allowedDirs'>) => boolean);
  /**
   * Why a call `isReadOnly` turns down is not read-only, for the message that denies it
   * (`it reads link, which is /etc/passwd, outside the allowed directories`).
   */
  notReadOnlyReason?(
    input: Input,
    scope: Pick<ToolContext, 'cwd' | 'allowedDirs'>,
  ): string | undefined;
  /** May run at the same time as other calls of the same assistant message. */
  isConcurrencySafe: boolean;
  /** Longest a call may run before it is aborted and reported as timed out. */
  timeoutMs?: number;
  /**
   * What a permission rule `Name(specifier)` is matched against: a Bash command, a file path
   * relative to cwd, WebFetch's `domain:<host>`. Without it only the bare rule `Name` applies.
   */
  permissionSubject?(input: Input, ctx: Pick<ToolContext, 'cwd'>): string;
}

/** A tool that does its work itself. */
export interface PlainTool<Input = unknown> extends ToolFields<Input> {
  spawnsAgents?: false;
  /** Contract: errors the model can fix are returned with `isError`; a throw becomes one too. */
  call(input: Input, ctx: ToolContext): Promise<ToolOutput>;
}

/** A tool that starts agents: the loop hands it the calling run (SpawnToolContext). */
export interface SpawnTool<Input = unknown> extends ToolFields<Input> {
  spawnsAgents: true;
  call(input: Input, ctx: SpawnToolContext): Promise<ToolOutput>;
}

export type Tool<Input = unknown> = PlainTool<Input> | SpawnTool<Input>;

/**
 * Types a tool's `call` from its schema and returns it with its input erased, so tools of
 * different inputs sit in one list. Sound because the loop parses every input with
 * `inputSchema` first.
 */
export function defineTool<Schema extends z.ZodType>(
  tool: PlainTool<z.output<Schema>> & { inputSchema: Schema },
): PlainTool;
export function defineTool<Schema extends z.ZodType>(
  tool: SpawnTool<z.output<Schema>> & { inputSchema: Schema },
): SpawnTool;
export function defineTool(tool: Tool<never>): Tool {
  return tool as unknown as Tool;
}

/**
 * A failure that must end the calling agent instead of becoming an error result the model
 * could work around: a security check, a broken invariant. Every other throw is recoverable.
 */
export class FatalToolError extends Error {
  readonly fatal = true;
  static isInstance(error: unknown): error is FatalToolError {
    return hasErrorMark(error, 'fatal');
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
