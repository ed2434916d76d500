import { describe, expect, it } from 'vitest';
import { parseAgentFile } from './load-agent-file.js';

/** `${NAME}` as a definition writes it (kept unexpanded). */
const variable = (name: string) => ['$', '{', name, '}'].join('');

const parse = (...lines: string[]) =>
  parseAgentFile({ path: '/p/.warren/agents/gemini.md', kind: 'project', text: lines.join('\n') });

describe('kind: acp definitions', () => {
  it('load with their command, arguments and environment, and need no prompt', () => {
    const entry = parse(
      '---',
      'name: gemini',
      'description: Gemini CLI',
      'kind: acp',
      'command: gemini',
      'args: [--experimental-acp]',
      'env:',
      `  GEMINI_API_KEY: ${variable('GEMINI_API_KEY')}`,
      '---',
      '',
    );
    expect(entry.error).toBeUndefined();
    expect(entry.warnings).toEqual([]);
    expect(entry.definition).toMatchObject({
      name: 'gemini',
      kind: 'acp',
      command: 'gemini',
      args: ['--experimental-acp'],
      env: { GEMINI_API_KEY: variable('GEMINI_API_KEY') },
    });
  });

  it('cannot be used without a command, and the error says what to add', () => {
    const entry = parse('---', 'name: gemini', 'description: Gemini CLI', 'kind: acp', '---', '');
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toContain('`command` is missing: add `command: <the program');
  });

  it('say which fields an external agent does not use, and drop them', () => {
    const entry = parse(
      '---',
      'name: gemini',
      'description: d',
      'kind: acp',
      'command: gemini',
      'model: opus',
      'tools: Read',
      'isolation: remote',
      '---',
      '',
    );
    expect(entry.warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining('`tools` does not apply to a `kind: acp` agent'),
      expect.stringContaining('`model` does not apply to a `kind: acp` agent'),
      expect.stringContaining('`isolation: remote` does not apply to a `kind: acp` agent'),
    ]);
    expect(entry.definition).not.toHaveProperty('model');
    expect(entry.definition).not.toHaveProperty('isolation');
  });

  it('ignore command, args and env on a local agent, with a warning', () => {
    const entry = parse('---', 'name: gemini', 'description: d', 'command: rm', '---', 'You help.');
    expect(entry.warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining('`command` applies to `kind: acp` agents only; ignored'),
    ]);
    expect(entry.definition).not.toHaveProperty('command');
  });
});
