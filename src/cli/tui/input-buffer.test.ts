// Editing the prompt: the keys a line editor has, over several lines.
import { describe, expect, it } from 'vitest';
import {
  backspace,
  bufferOf,
  deleteWordBack,
  down,
  insert,
  killToLineEnd,
  killToLineStart,
  left,
  lineStart,
  up,
} from './input-buffer.js';

describe('the prompt buffer', () => {
  it('inserts and deletes at the cursor', () => {
    let buffer = insert(bufferOf('held'), 'lo');
    buffer = left(left(buffer));
    buffer = backspace(buffer);
    expect(buffer).toEqual({ text: 'hello', cursor: 3 });
  });

  it('moves between lines in the same column, and says when there is no line to go to', () => {
    const buffer = bufferOf('first line\nsecond');
    expect(down(buffer)).toBeUndefined();
    const above = up(buffer)!;
    expect(above.cursor).toBe(6);
    expect(up(above)).toBeUndefined();
    expect(down(above)!.cursor).toBe(buffer.text.length);
  });

  it('deletes a word, and kills to either end of the line', () => {
    expect(deleteWordBack(bufferOf('npm run  test  '))).toEqual({ text: 'npm run  ', cursor: 9 });
    const middle = left(left(bufferOf('a\nhello')));
    expect(killToLineStart(middle)).toEqual({ text: 'a\nlo', cursor: 2 });
    expect(killToLineEnd(middle)).toEqual({ text: 'a\nhel', cursor: 5 });
    expect(lineStart(middle).cursor).toBe(2);
  });

  it('moves over an emoji as one character', () => {
    expect(backspace(bufferOf('ok 👍'))).toEqual({ text: 'ok ', cursor: 3 });
  });
});
