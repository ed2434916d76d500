// Small tools that stand in for real ones in tests of the loop and of sub-agents: one that
// echoes, one that always fails, one that never ends, and the shape of a test's own tool.
import { z } from 'zod';
import { defineTool, type PlainTool, type Tool } from '../core/tool.js';

/**
 * A test's own tool that takes no input and only reads, so the loop runs it in parallel without
 * asking: what the test gives is its name, description and call (and a timeout, if it wants one).
 */
export function readOnlyTool(
  fields: Pick<PlainTool<Record<string, never>>, 'name' | 'description' | 'call' | 'timeoutMs'>,
): Tool {
  return defineTool({
    inputSchema: z.object({}),
    isReadOnly: true,
    isConcurrencySafe: true,
    ...fields,
  });
}

/** A read-only tool that answers `echo: <text>`. */
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

/** A read-only tool that throws `error` on every call: a plain Error, or a FatalToolError. */
export function throwingTool(name: string, error: Error): Tool {
  return readOnlyTool({
    name,
    description: 'always fails',
    async call() {
      throw error;
    },
  });
}

/** A read-only tool that never returns and ignores its signal, like a command deaf to SIGTERM. */
export const deafTool = readOnlyTool({
  name: 'Deaf',
  description: 'never ends',
  call: () => new Promise<string>(() => {}),
});

/** A tool that changes something, so the default mode asks before it runs. */
export const pokeTool = defineTool({
  name: 'Poke',
  description: 'changes something',
  inputSchema: z.object({}),
  isReadOnly: false,
  isConcurrencySafe: false,
  async call() {
    return 'poked';
  },
});
