// Calling a tool directly in a test: a ToolContext with fresh state, a scratch directory to work
// in, and readers for what a tool returns.

import { beforeEach } from 'vitest';
import type { PermissionPolicy } from '../core/permission-policy.js';
import type { Tool, ToolContext, ToolOutput } from '../core/tool.js';
import { FileStateCache } from '../tools/file-state.js';
import { useTempDir } from './temp-dir.js';

/**
 * A context for calling a tool directly: fresh file state, a live signal, no-op progress, the
 * main agent. `allowedDirs` defaults to `[cwd]`.
 */
export function testToolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  const cwd = overrides.cwd ?? process.cwd();
  return {
    toolCallId: 'test-call',
    signal: new AbortController().signal,
    cwd,
    allowedDirs: [cwd],
    fileState: new FileStateCache(),
    agent: { agentId: 'main', parentId: null, depth: 0, agentType: 'main', path: 'main' },
    progress: () => {},
    ...overrides,
  };
}

/**
 * For every test: a fresh temp dir (`dir()`) and a tool context working in it (`ctx()`), with
 * file state that starts empty, so no test sees what another one read.
 */
export function useToolSandbox(): { dir: () => string; ctx: () => ToolContext } {
  const dir = useTempDir();
  let ctx: ToolContext | undefined;
  beforeEach(() => {
    ctx = testToolContext({ cwd: dir() });
  });
  return {
    dir,
    ctx: () => {
      if (ctx === undefined) throw new Error('useToolSandbox(): the context exists only in a test');
      return ctx;
    },
  };
}

/** The text of a tool result, error or not. */
export function outputText(result: ToolOutput): string {
  return typeof result === 'string' ? result : result.output;
}

/** Whether a tool result is flagged as an error for the model. */
export function isErrorOutput(result: ToolOutput): boolean {
  return typeof result !== 'string' && result.isError === true;
}

/**
 * Calls a plain tool the way the loop does: the input is parsed by the tool's schema, the policy
 * decides on it, then the tool runs with it (or the denial comes back), able to ask the policy
 * again under another subject.
 */
export async function callThroughPolicy(
  tool: Tool,
  rawInput: unknown,
  policy: PermissionPolicy,
  ctx: ToolContext,
): Promise<ToolOutput> {
  if (tool.spawnsAgents) throw new Error('callThroughPolicy(): only for plain tools');
  const input = tool.inputSchema.parse(rawInput);
  const decision = await policy.decide({
    tool,
    input,
    cwd: ctx.cwd,
    allowedDirs: ctx.allowedDirs,
    agent: ctx.agent,
    signal: ctx.signal,
  });
  if (decision.behavior === 'deny') return { output: decision.message, isError: true };
  const asked = decision.input ?? input;
  // A second question under another subject, as the loop lets a tool ask it while it runs.
  const askPermission = (subject: string) =>
    policy.decide({
      tool: { ...tool, permissionSubject: () => subject } as Tool,
      input: asked,
      cwd: ctx.cwd,
      allowedDirs: ctx.allowedDirs,
      agent: ctx.agent,
      signal: ctx.signal,
    });
  return tool.call(asked, { ...ctx, askPermission });
}
