import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isErrorOutput, outputText, useToolSandbox } from '../testing/tool-context.js';
import { editTool } from './edit.js';
import { readTool } from './read.js';

const { dir, ctx } = useToolSandbox();

async function readAfterWriting(name: string, content: string): Promise<string> {
  const file = path.join(dir(), name);
  await writeFile(file, content);
  await readTool.call({ file_path: name }, ctx());
  return file;
}

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
    const result = await editTool.call(
      { file_path: 'app.js', old_string: '"hello "', new_string: '"hi "' },
      ctx(),
    );
    expect(await readFile(file, 'utf8')).toBe(source.replace('"hello "', '"hi "'));
    expect(outputText(result)).toContain('Edited app.js');
    expect(outputText(result)).toContain('     2\t  return "hi " + name;');
  });

  it('refuses to edit a file this agent has not read', async () => {
    await writeFile(path.join(dir(), 'app.js'), source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'hello', new_string: 'hi' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('Read it first');
  });

  it('refuses when the file changed after it was read', async () => {
    const file = await readAfterWriting('app.js', source);
    await writeFile(file, `${source}// added by a formatter\n`);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'hello', new_string: 'hi' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('Read it again');
    expect(await readFile(file, 'utf8')).toContain('hello');
  });

  it('says that text was not found and that it must match exactly', async () => {
    await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'goodbye', new_string: 'farewell' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('not found');
    expect(outputText(result)).toContain('exactly');
  });

  it('points to the line where the text matches apart from indentation', async () => {
    await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'function part() {\nreturn "bye";', new_string: 'x' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('line 5');
    expect(outputText(result)).toContain('indentation');
  });

  it('notices a line-number prefix copied from Read output', async () => {
    await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: '     6\t  return "bye";', new_string: 'x' },
      ctx(),
    );
    expect(outputText(result)).toContain('line-number prefix');
  });

  it('refuses ambiguous text, saying how often and where it occurs', async () => {
    const file = await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'return', new_string: 'yield' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('occurs 2 times');
    expect(outputText(result)).toContain('lines 2, 6');
    expect(outputText(result)).toContain('replace_all');
    expect(await readFile(file, 'utf8')).toBe(source);
  });

  it('replaces every occurrence with replace_all', async () => {
    const file = await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'return', new_string: 'yield', replace_all: true },
      ctx(),
    );
    expect(outputText(result)).toContain('replaced 2 occurrences');
    expect(await readFile(file, 'utf8')).toBe(source.replaceAll('return', 'yield'));
  });

  it('refuses an edit whose old and new text are the same', async () => {
    await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: 'hello', new_string: 'hello' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('nothing to change');
  });

  it('inserts replacement text literally, dollar signs included', async () => {
    const file = await readAfterWriting('price.txt', 'price: X\n');
    await editTool.call(
      { file_path: 'price.txt', old_string: 'X', new_string: "$& $1 $$ $'" },
      ctx(),
    );
    expect(await readFile(file, 'utf8')).toBe("price: $& $1 $$ $'\n");
  });

  it('allows consecutive edits without reading again in between', async () => {
    const file = await readAfterWriting('app.js', source);
    await editTool.call({ file_path: 'app.js', old_string: 'greet', new_string: 'welcome' }, ctx());
    const second = await editTool.call(
      { file_path: 'app.js', old_string: '"bye"', new_string: '"ciao"' },
      ctx(),
    );
    expect(isErrorOutput(second)).toBe(false);
    expect(await readFile(file, 'utf8')).toContain('welcome');
    expect(await readFile(file, 'utf8')).toContain('"ciao"');
  });

  it('matches and keeps Windows line endings when the model writes plain newlines', async () => {
    const file = await readAfterWriting('dos.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await editTool.call(
      { file_path: 'dos.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('creates a new file when old_string is empty and the file does not exist', async () => {
    const result = await editTool.call(
      { file_path: 'fresh/new.txt', old_string: '', new_string: 'hello\n' },
      ctx(),
    );
    expect(outputText(result)).toBe('Created fresh/new.txt.');
    expect(await readFile(path.join(dir(), 'fresh/new.txt'), 'utf8')).toBe('hello\n');
  });

  it('refuses an empty old_string for a file that has content', async () => {
    await readAfterWriting('app.js', source);
    const result = await editTool.call(
      { file_path: 'app.js', old_string: '', new_string: 'x' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('already exists');
  });

  it('says that a missing file must be created with Write', async () => {
    const result = await editTool.call(
      { file_path: 'nope.txt', old_string: 'a', new_string: 'b' },
      ctx(),
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('does not exist');
  });

  it('changes files, so it never runs in parallel', () => {
    expect(editTool.isReadOnly).toBe(false);
    expect(editTool.isConcurrencySafe).toBe(false);
  });
});
