import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../core/tool.js';
import { toModelPrompt, toModelTools, withCacheBreakpoints } from './model-prompt.js';

const tool = defineTool({
  name: 'Read',
  description: 'reads',
  inputSchema: z.object({ file_path: z.string().describe('where'), limit: z.number().optional() }),
  isReadOnly: true,
  isConcurrencySafe: true,
  call: async () => '',
});

describe('model prompt', () => {
  it('turns a tool schema into JSON schema with field descriptions, once per tool', () => {
    const [spec] = toModelTools([tool]);
    expect(spec).toMatchObject({
      type: 'function',
      name: 'Read',
      inputSchema: {
        type: 'object',
        properties: { file_path: { type: 'string', description: 'where' } },
        required: ['file_path'],
      },
    });
    expect(toModelTools([tool])[0]).toBe(spec);
  });

  it('sends a tool that carries its own JSON Schema with that schema, untouched', () => {
    const jsonSchema = {
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' }, n: { $ref: '#/$defs/n' } },
      $defs: { n: { type: 'integer', minimum: 1 } },
      required: ['when'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    };
    const own = defineTool({
      name: 'mcp__srv__when',
      description: 'server tool',
      inputSchema: z.record(z.string(), z.unknown()),
      jsonSchema,
      isReadOnly: false,
      isConcurrencySafe: false,
      call: async () => '',
    });
    const [spec] = toModelTools([own]);
    expect(spec?.inputSchema).toBe(jsonSchema);
  });

  it('sends error tool results as error text', () => {
    const [message] = toModelPrompt([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'Read',
            output: 'nope',
            isError: true,
          },
        ],
      },
    ]);
    expect(message).toMatchObject({
      role: 'tool',
      content: [{ output: { type: 'error-text', value: 'nope' } }],
    });
  });

  it('marks cache breakpoints on the system prompt, the newest message and the last tool', () => {
    const prompt = toModelPrompt([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
      { role: 'user', content: 'three' },
    ]);
    const marked = withCacheBreakpoints(prompt, toModelTools([tool]));
    const cached = marked.prompt.map((message) => message.providerOptions !== undefined);
    expect(cached).toEqual([true, false, false, true]);
    expect(marked.tools[0]?.providerOptions).toEqual({
      anthropic: { cacheControl: { type: 'ephemeral' } },
    });
  });
});
