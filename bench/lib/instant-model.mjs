// What the in-process scripts (loop-overhead, child-overhead) share: a model that answers from
// the request without any I/O, so only warren's own work is counted, and the `lookup` tool.
import { z } from 'zod';
import { defineTool } from '../../dist/index.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A LanguageModelV4 whose whole reply is `answer(options)`'s content parts (awaited). */
export function instantModel(answer) {
  return {
    specificationVersion: 'v4',
    provider: 'instant',
    modelId: 'instant',
    supportedUrls: {},
    async doGenerate(options) {
      const content = await answer(options);
      const finish = content[0].type === 'text' ? 'stop' : 'tool-calls';
      return { content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] };
    },
    async doStream() {
      throw new Error('the in-process scripts run with stream: false');
    },
  };
}

export const lookupTool = defineTool({
  name: 'lookup',
  description: 'Look up a key.',
  inputSchema: z.object({ key: z.string() }),
  isReadOnly: true,
  isConcurrencySafe: true,
  call: async () => 'value: 42',
});
