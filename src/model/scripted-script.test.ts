import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../core/config-error.js';
import { configErrorOf } from '../testing/caught-errors.js';
import { useTempDir } from '../testing/temp-dir.js';
import { loadScript, readScript } from './scripted-script.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const dir = useTempDir('warren-script-');

/** Writes a script and returns the ConfigError loading it throws. */
async function loadError(name: string, source: string): Promise<ConfigError> {
  const path = join(dir(), name);
  await writeFile(path, source);
  return configErrorOf(loadScript(path));
}

describe('loadScript', () => {
  it('loads a YAML list of turns, taking snake_case fields as their camelCase names', async () => {
    const turns = await loadScript(fixture('script-parallel.yaml'));

    expect(turns).toEqual([
      {
        match: { prompt: 'review' },
        toolCalls: [{ name: 'Read', input: { file_path: 'src/index.ts' } }],
      },
      {
        match: { prompt: 'review', lastToolResult: '/^export/' },
        text: 'The index only re-exports.',
        usage: { input: 120, output: 8, cacheRead: 40 },
      },
      { match: { prompt: 'tests' }, delayMs: 5, text: 'All tests pass.' },
    ]);
  });

  it('loads a JSON script with a model name and its turns', async () => {
    const script = await readScript(fixture('script-retry.json'));

    expect(script).toEqual({
      model: 'retry-demo',
      turns: [
        { error: { status: 429, retryAfter: 2 } },
        { text: 'Recovered after the rate limit.' },
      ],
    });
  });

  it('names file:line:column of a YAML syntax error', async () => {
    const error = await loadError('broken.yaml', '- text: fine\n- text: "never closed\n');

    expect(error.message).toMatch(
      /^.*broken\.yaml:3:1: Missing closing "quote \(fix the YAML syntax\)$/,
    );
  });

  it('names file:line:column of a JSON syntax error', async () => {
    const error = await loadError('broken.json', '{\n  "turns": [\n    { "text": "a" }\n  \n');

    expect(error.where).toBe(`${join(dir(), 'broken.json')}:5:1`);
    expect(error.fix).toBe('fix the JSON syntax');
  });

  it('names the place and field of a bad value deep in a turn', async () => {
    const error = await loadError(
      'script.yaml',
      [
        'turns:',
        '  - text: one',
        '  - text: two',
        '  - tool_calls:',
        '      - name: Read',
        '        input: src/index.ts',
      ].join('\n'),
    );

    expect(error.where).toBe(`${join(dir(), 'script.yaml')}:6:16`);
    expect(error.problem).toBe('turns[2].tool_calls[0].input: expected object, received string');
  });

  it('counts turn positions from a top-level list as well', async () => {
    const error = await loadError('list.yaml', '- text: one\n- text: two\n  delayMs: soon\n');

    expect(error.message).toContain(
      'list.yaml:3:12: turns[1].delayMs: expected number, received string',
    );
  });

  it('refuses an unknown key in a turn, pointing at it and listing the valid keys', async () => {
    const error = await loadError('typo.yaml', '- text: one\n- txet: two\n');

    expect(error.where).toBe(`${join(dir(), 'typo.yaml')}:2:3`);
    expect(error.problem).toBe('turns[1]: unknown key "txet"');
    expect(error.fix).toBe(
      'valid keys: text, toolCalls (or tool_calls), usage, delayMs (or delay_ms), error, match',
    );
  });

  it('refuses an unknown key inside a nested object', async () => {
    const error = await loadError(
      'nested.json',
      '{ "turns": [\n  { "error": { "status": 429, "retryAfterMs": 10 } }\n] }\n',
    );

    expect(error.where).toBe(`${join(dir(), 'nested.json')}:2:31`);
    expect(error.problem).toBe('turns[0].error: unknown key "retryAfterMs"');
    expect(error.fix).toContain('retryAfter (or retry_after)');
  });

  it('refuses a turn that says nothing', async () => {
    const error = await loadError('empty-turn.yaml', '- text: one\n- delay_ms: 10\n');

    expect(error.message).toContain(
      'empty-turn.yaml:2:3: turns[1]: a turn needs text, toolCalls or error',
    );
  });

  it('refuses an invalid regular expression in match', async () => {
    const error = await loadError('regex.yaml', '- match: { prompt: "/(unclosed/" }\n  text: hi\n');

    expect(error.where).toBe(`${join(dir(), 'regex.yaml')}:1:20`);
    expect(error.problem).toMatch(/^turns\[0\]\.match\.prompt: invalid regular expression/);
  });

  it('refuses the same field spelled both ways', async () => {
    const error = await loadError('twice.yaml', '- text: hi\n  delay_ms: 1\n  delayMs: 2\n');

    expect(error.problem).toBe('turns[0].delay_ms: "delay_ms" and "delayMs" are the same field');
  });

  it('refuses a file that holds no turns', async () => {
    const error = await loadError('blank.yaml', '# nothing yet\n');

    expect(error.problem).toBe('a script is a list of turns, or a map with a turns list');
  });

  it('refuses a YAML bomb, naming the file, instead of expanding it', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const error = await loadError('bomb.yaml', `${levels.join('\n')}\nturns: *i\n`);

    expect(error.message).toMatch(
      /bomb\.yaml: its aliases expand to too much \(over 100 uses of one anchor\): a YAML bomb.*\(write the turns out in full, with fewer \* aliases\)$/,
    );
  });

  it('refuses a script file that is neither YAML nor JSON', async () => {
    await expect(loadScript(join(dir(), 'script.txt'))).rejects.toThrow(
      /script\.txt: a script file must be YAML or JSON/,
    );
  });

  it('names the file it cannot read', async () => {
    await expect(loadScript(join(dir(), 'missing.yaml'))).rejects.toThrow(
      /missing\.yaml: cannot read the script: ENOENT/,
    );
  });
});
