import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readOnlyBashTool } from './bash.js';
import { BUILTIN_TOOL_NAMES } from './builtin-tool-names.js';
import { builtinTools } from './builtin-tools.js';

describe('builtinTools', () => {
  it('offers Read, Write, Edit, Glob, Grep, Bash, TodoWrite and WebFetch, in that order', () => {
    expect(builtinTools().map((tool) => tool.name)).toEqual([
      'Read',
      'Write',
      'Edit',
      'Glob',
      'Grep',
      'Bash',
      'TodoWrite',
      'WebFetch',
    ]);
  });

  it('has the names agent definitions are checked against, in the same order', () => {
    expect(builtinTools().map((tool) => tool.name)).toEqual(BUILTIN_TOOL_NAMES);
  });

  it('is the same list, object for object, every time: a stable prefix for the prompt cache', () => {
    expect(builtinTools()).toEqual(builtinTools());
    const again = builtinTools();
    for (const [i, tool] of builtinTools().entries()) expect(tool).toBe(again[i]);
  });

  it('describes every tool and every input field for the model', () => {
    for (const tool of [...builtinTools(), readOnlyBashTool]) {
      expect(tool.description.length, tool.name).toBeGreaterThan(50);
      const schema = z.toJSONSchema(tool.inputSchema) as {
        properties: Record<string, { description?: string }>;
      };
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  it('uses the input names models already know', () => {
    const fields = Object.fromEntries(
      builtinTools().map((tool) => {
        const schema = z.toJSONSchema(tool.inputSchema) as {
          properties: object;
          required?: string[];
        };
        return [
          tool.name,
          { all: Object.keys(schema.properties).sort(), required: schema.required ?? [] },
        ];
      }),
    );
    expect(fields).toEqual({
      Read: { all: ['file_path', 'limit', 'offset'], required: ['file_path'] },
      Write: { all: ['content', 'file_path'], required: ['file_path', 'content'] },
      Edit: {
        all: ['file_path', 'new_string', 'old_string', 'replace_all'],
        required: ['file_path', 'old_string', 'new_string'],
      },
      Glob: { all: ['path', 'pattern'], required: ['pattern'] },
      Grep: {
        all: ['case_insensitive', 'glob', 'output_mode', 'path', 'pattern'],
        required: ['pattern'],
      },
      Bash: { all: ['command', 'timeout'], required: ['command'] },
      TodoWrite: { all: ['todos'], required: ['todos'] },
      WebFetch: { all: ['prompt', 'url'], required: ['url'] },
    });
  });

  it('lets only the tools that change no file run in parallel', () => {
    const safe = builtinTools()
      .filter((tool) => tool.isConcurrencySafe)
      .map((tool) => tool.name);
    expect(safe).toEqual(['Read', 'Glob', 'Grep', 'TodoWrite', 'WebFetch']);
  });
});
