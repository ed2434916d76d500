// Test fixtures for tools: a ToolContext with fresh state, and real temporary directories.
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolOutput } from '../core/tool.js';
import { FileStateCache } from './file-state.js';

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

/** A new empty directory under the OS temp dir, as its real path (macOS links /tmp elsewhere). */
export async function makeTempDir(prefix = 'warren-test-'): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), prefix)));
}

/** The text of a tool result, error or not. */
export function outputText(result: ToolOutput): string {
  return typeof result === 'string' ? result : result.output;
}

/** Whether a tool result is flagged as an error for the model. */
export function isErrorOutput(result: ToolOutput): boolean {
  return typeof result !== 'string' && result.isError === true;
}

/** A read-only tool that answers `echo: <text>`, for tests of the loop and of sub-agents. */
export const echoTool = defineTool({
  name: 'Echo',
  description: 'returns its text',
  inputSchema: z.object({ text: z.string() }),
  isReadOnly: true,
  isConcurrencySafe: true,
  async call({ text }) {
    return `echo: ${text}`;
  },
});
