import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isErrorOutput,
  outputText,
  testToolContext,
  useToolSandbox,
} from '../testing/tool-context.js';
import { editTool } from './edit.js';
import { readTool } from './read.js';

const { dir, ctx } = useToolSandbox();

async function readAfterWriting(name: string, content: string): Promise<string> {
  const file = path.join(dir(), name);
  await writeFile(file, content);
  await readTool.call({ file_path: name }, ctx());
  return file;
}

/** Edits as the model would call the tool, in this test's context. */
const edit = (file: string, oldString: string, newString: string, options = {}) =>
  editTool.call(
    { file_path: file, old_string: oldString, new_string: newString, ...options },
    ctx(),
  );

const source = [
  'function greet(name) {',
  '  return "hello " + name;',
  '}',
  '',
  'function part() {',
  '  return "bye";',
  '}',
  '',
].join('\n');

describe('Edit', () => {
  it('replaces text that occurs once and shows the edited region with line numbers', async () => {
    const file = await readAfterWriting('app.js', source);
    const result = await edit('app.js', '"hello "', '"hi "');
    expect(await readFile(file, 'utf8')).toBe(source.replace('"hello "', '"hi "'));
    expect(outputText(result)).toContain('Edited app.js');
    expect(outputText(result)).toContain('     2\t  return "hi " + name;');
  });

  it('refuses to edit a file this agent has not read', async () => {
    await writeFile(path.join(dir(), 'app.js'), source);
    const result = await edit('app.js', 'hello', 'hi');
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('Read it first');
  });

  it('refuses when the file changed after it was read', async () => {
    const file = await readAfterWriting('app.js', source);
    await writeFile(file, `${source}// added by a formatter\n`);
    const result = await edit('app.js', 'hello', 'hi');
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('Read it again');
    expect(await readFile(file, 'utf8')).toContain('hello');
  });

  // Each refusal tells the model what to fix in its next call.
  it.each([
    [
      'says that text was not found and that it must match exactly',
      'goodbye',
      'farewell',
      ['not found', 'exactly'],
    ],
    [
      'points to the line where the text matches apart from indentation',
      'function part() {\nreturn "bye";',
      'x',
      ['line 5', 'indentation'],
    ],
    [
      'notices a line-number prefix copied from Read output',
      '     6\t  return "bye";',
      'x',
      ['line-number prefix'],
    ],
    [
      'refuses an edit whose old and new text are the same',
      'hello',
      'hello',
      ['nothing to change'],
    ],
    ['refuses an empty old_string for a file that has content', '', 'x', ['already exists']],
  ])('%s', async (_, oldString, newString, hints) => {
    await readAfterWriting('app.js', source);
    const result = await edit('app.js', oldString, newString);
    expect(isErrorOutput(result)).toBe(true);
    for (const hint of hints) expect(outputText(result)).toContain(hint);
  });

  it('refuses ambiguous text, saying how often and where it occurs', async () => {
    const file = await readAfterWriting('app.js', source);
    const result = await edit('app.js', 'return', 'yield');
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('occurs 2 times');
    expect(outputText(result)).toContain('lines 2, 6');
    expect(outputText(result)).toContain('replace_all');
    expect(await readFile(file, 'utf8')).toBe(source);
  });

  it('replaces every occurrence with replace_all', async () => {
    const file = await readAfterWriting('app.js', source);
    const result = await edit('app.js', 'return', 'yield', { replace_all: true });
    expect(outputText(result)).toContain('replaced 2 occurrences');
    expect(await readFile(file, 'utf8')).toBe(source.replaceAll('return', 'yield'));
  });

  it('inserts replacement text literally, dollar signs included', async () => {
    const file = await readAfterWriting('price.txt', 'price: X\n');
    await edit('price.txt', 'X', "$& $1 $$ $'");
    expect(await readFile(file, 'utf8')).toBe("price: $& $1 $$ $'\n");
  });

  it('allows consecutive edits without reading again in between', async () => {
    const file = await readAfterWriting('app.js', source);
    await edit('app.js', 'greet', 'welcome');
    const second = await edit('app.js', '"bye"', '"ciao"');
    expect(isErrorOutput(second)).toBe(false);
    expect(await readFile(file, 'utf8')).toContain('welcome');
    expect(await readFile(file, 'utf8')).toContain('"ciao"');
  });

  it('matches and keeps Windows line endings when the model writes plain newlines', async () => {
    const file = await readAfterWriting('dos.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await edit('dos.txt', 'one\ntwo', 'uno\ndos');
    expect(isErrorOutput(result)).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('creates a new file when old_string is empty and the file does not exist', async () => {
    const result = await edit('fresh/new.txt', '', 'hello\n');
    expect(outputText(result)).toBe('Created fresh/new.txt.');
    expect(await readFile(path.join(dir(), 'fresh/new.txt'), 'utf8')).toBe('hello\n');
  });

  it('says that a missing file must be created with Write', async () => {
    const result = await edit('nope.txt', 'a', 'b');
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('does not exist');
  });

  it('changes files, so it never runs in parallel', () => {
    expect(editTool.isReadOnly).toBe(false);
    expect(editTool.isConcurrencySafe).toBe(false);
  });

  it('lets agents that read a file together change it one at a time: each one after the first is told to read again, and no change is lost', async () => {
    const lines = Array.from({ length: 8 }, (_, index) => `line ${index}`);
    await writeFile(path.join(dir(), 'shared.txt'), `${lines.join('\n')}\n`);
    const agents = lines.map(() => testToolContext({ cwd: dir() }));
    for (const agent of agents) await readTool.call({ file_path: 'shared.txt' }, agent);
    const editLine = (index: number) =>
      editTool.call(
        { file_path: 'shared.txt', old_string: `line ${index}\n`, new_string: `LINE ${index}\n` },
        agents[index]!,
      );

    const first = await Promise.all(lines.map((_, index) => editLine(index)));
    const landed = first.flatMap((result, index) => (isErrorOutput(result) ? [] : [index]));
    expect(landed).toHaveLength(1);
    for (const result of first.filter(isErrorOutput)) {
      expect(outputText(result)).toContain('has changed since you last read it');
    }
    // Each refused agent reads again and redoes its change: every change survives.
    for (const [index, agent] of agents.entries()) {
      if (landed.includes(index)) continue;
      await readTool.call({ file_path: 'shared.txt' }, agent);
      expect(isErrorOutput(await editLine(index))).toBe(false);
    }
    const final = await readFile(path.join(dir(), 'shared.txt'), 'utf8');
    expect(final).toBe(`${lines.map((line) => line.toUpperCase()).join('\n')}\n`);
  });
});
