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

  it('marks cache breakpoints on the last tool, the system prompt and the newest message', () => {
    const prompt = toModelPrompt([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'one' },
    ]);
    const marked = withCacheBreakpoints(prompt, toModelTools([tool]));
    const cached = marked.prompt.map((message) => message.providerOptions !== undefined);
    expect(cached).toEqual([true, true]);
    expect(marked.tools[0]?.providerOptions).toEqual({
      anthropic: { cacheControl: { type: 'ephemeral' } },
    });
  });

  it('marks where the previous request ended too: the message before the newest reply', () => {
    const prompt = toModelPrompt([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
      { role: 'user', content: 'three' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'Read', input: {} }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c', toolName: 'Read', output: 'x', isError: false },
        ],
      },
    ]);
    const marked = withCacheBreakpoints(prompt, toModelTools([tool]));
    const cached = marked.prompt.map((message) => message.providerOptions !== undefined);
    expect(cached).toEqual([true, false, false, true, false, true]);
  });

  it('never marks more than four breakpoints, nor the same message twice', () => {
    const conversations = [
      [{ role: 'user', content: 'one' }],
      [
        { role: 'system', content: 'a' },
        { role: 'system', content: 'b' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
      ],
      [
        { role: 'system', content: 'sys' },
        { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
        { role: 'user', content: 'three' },
      ],
    ] as const;
    for (const messages of conversations) {
      const marked = withCacheBreakpoints(toModelPrompt(messages as never), toModelTools([tool]));
      const count =
        marked.prompt.filter((message) => message.providerOptions !== undefined).length + 1;
      expect(count).toBeLessThanOrEqual(4);
    }
  });
});
