import { describe, expect, it } from 'vitest';
import { readFrontmatterFields } from './frontmatter-fields.js';
import { parseFrontmatterLeniently } from './lenient-frontmatter.js';

describe('parseFrontmatterLeniently', () => {
  it('reads a one-line description holding an unquoted `: ` as plain text', () => {
    const text = [
      'name: gdpr',
      "description: Use for privacy work. Triggers on: 'GDPR', 'CCPA'.",
      'tools: Read, Grep',
    ].join('\n');
    const result = parseFrontmatterLeniently(text, 2);
    expect(result.fields).toEqual({
      name: 'gdpr',
      description: "Use for privacy work. Triggers on: 'GDPR', 'CCPA'.",
      tools: 'Read, Grep',
    });
    expect(result.fixes).toEqual([{ line: 3, message: expect.stringContaining('unquoted `: `') }]);
  });

  it('joins a description broken over a blank line as YAML would fold it', () => {
    const text = [
      'name: go-reviewer',
      'description: first half',
      '',
      'second half',
      'model: opus',
    ].join('\n');
    const result = parseFrontmatterLeniently(text, 2);
    expect(result.fields.description).toBe('first half\nsecond half');
    expect(result.fields.model).toBe('opus');
    expect(result.fixes[0]?.message).toContain('broken over a blank line');
  });

  it('keeps literal `\\n` escapes and `<example>` blocks as written', () => {
    const description =
      'Use this agent when: x.\\n\\n<example>\\nContext: y\\nuser: "z"\\n</example>';
    const result = parseFrontmatterLeniently(`description: ${description}`, 2);
    expect(result.fields.description).toBe(description);
  });

  it('keeps example dialogue at column 0 in a description of several lines, and says so', () => {
    const text = [
      'description: Use it for tests. Examples: a',
      '<example>',
      'user: "write tests"',
      'assistant: "on it"',
      '</example>',
      'model: sonnet',
      'category: testing',
    ].join('\n');
    const result = parseFrontmatterLeniently(text, 2);
    expect(result.fields).toEqual({
      description:
        'Use it for tests. Examples: a <example> user: "write tests" assistant: "on it" </example>',
      model: 'sonnet',
      category: 'testing',
    });
    expect(result.fixes.map((fix) => fix.line)).toEqual([4, 2]);
    expect(result.fixes[0]?.message).toMatch(/^kept 2 lines 4, 5 in `description`/);
  });

  it('does not take column-0 lines into a `|` description, which YAML ends there', () => {
    const text = ['description: |', '  one', '  two', 'user: x: y'].join('\n');
    const result = parseFrontmatterLeniently(text, 2);
    expect(result.fields.description).toBe('one\ntwo\n');
    expect(Object.keys(result.fields)).toEqual(['description', 'user']);
  });

  it('treats commented-out fields as comments', () => {
    const text = [
      'tools: Read',
      '# permissionMode: acceptEdits',
      '# tools: Read, Write, Bash',
    ].join('\n');
    expect(parseFrontmatterLeniently(text, 2).fields).toEqual({ tools: 'Read' });
  });

  it('still parses the valid fields as YAML (lists, maps, numbers)', () => {
    const text = ['description: a: b', 'tools:', '  - Read', '  - Grep', 'maxTurns: 20'].join('\n');
    const result = parseFrontmatterLeniently(text, 2);
    expect(result.fields.tools).toEqual(['Read', 'Grep']);
    expect(result.fields.maxTurns).toBe(20);
    expect(result.lines).toEqual({ description: 2, tools: 3, maxTurns: 6 });
  });

  it('uses the later value of a key set twice and says so', () => {
    const result = parseFrontmatterLeniently('model: opus\nmodel: haiku', 2);
    expect(result.fields.model).toBe('haiku');
    expect(result.fixes[0]).toEqual({ line: 3, message: expect.stringContaining('set twice') });
  });
});

describe('readFrontmatterFields', () => {
  it('parses valid YAML strictly and reports no repairs', () => {
    const result = readFrontmatterFields('name: a\ndescription: "x: y"\n# model: opus', 2);
    expect(result.fields).toEqual({ name: 'a', description: 'x: y' });
    expect(result.lines).toEqual({ name: 2, description: 3 });
    expect(result.repairs).toEqual([]);
  });

  it('falls back to the line parser when the YAML is invalid', () => {
    const result = readFrontmatterFields('name: a\ndescription: x: y', 2);
    expect(result.fields).toEqual({ name: 'a', description: 'x: y' });
    expect(result.repairs).toHaveLength(1);
  });

  it('reads an empty frontmatter as no fields', () => {
    expect(readFrontmatterFields('', 2).fields).toEqual({});
  });
});
