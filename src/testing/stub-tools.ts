// Small tools that stand in for real ones in tests of the loop and of sub-agents: one that
// echoes, one that always fails, one that never ends.
import { z } from 'zod';
import { defineTool, type Tool } from '../core/tool.js';

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
  return defineTool({
    name,
    description: 'always fails',
    inputSchema: z.object({}),
    isReadOnly: true,
    isConcurrencySafe: true,
    async call() {
      throw error;
    },
  });
}

/** A read-only tool that never returns and ignores its signal, like a command deaf to SIGTERM. */
export const deafTool = defineTool({
  name: 'Deaf',
  description: 'never ends',
  inputSchema: z.object({}),
  isReadOnly: true,
  isConcurrencySafe: true,
  call: () => new Promise<string>(() => {}),
});
