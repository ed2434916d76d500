// Markdown as terminal lines: what a model writes most (headings, lists, code, emphasis) comes
// out styled, and text still streaming never shows half a marker as styled.
import { describe, expect, it } from 'vitest';
import { inline, markdownLines } from './markdown.js';

describe('Markdown lines', () => {
  it('styles headings, bullets, numbered lists, quotes and rules', () => {
    const lines = markdownLines('# Plan\n- read\n2. write\n> note\n---');
    expect(lines.map((line) => [line.kind, line.spans.map((span) => span.text).join('')])).toEqual([
      ['heading', 'Plan'],
      ['text', '• read'],
      ['text', '2. write'],
      ['quote', '│ note'],
      ['rule', '─'.repeat(40)],
    ]);
  });

  it('keeps fenced code as it is, markers and all', () => {
    const lines = markdownLines('Run:\n```sh\nnpm test **now**\n```\nDone.');
    expect(lines).toEqual([
      { kind: 'text', spans: [{ text: 'Run:' }] },
      { kind: 'code', spans: [{ text: 'npm test **now**', code: true }] },
      { kind: 'text', spans: [{ text: 'Done.' }] },
    ]);
  });

  it('treats an unclosed fence (still streaming) as code up to the end', () => {
    expect(markdownLines('```\nlet a').map((line) => line.kind)).toEqual(['code']);
  });

  it('parses bold, italics, inline code and links', () => {
    expect(inline('a **b** *c* `d` [e](http://x) snake_case_name')).toEqual([
      { text: 'a ' },
      { text: 'b', bold: true },
      { text: ' ' },
      { text: 'c', italic: true },
      { text: ' ' },
      { text: 'd', code: true },
      { text: ' ' },
      { text: 'e (http://x)' },
      { text: ' snake_case_name' },
    ]);
  });

  it('leaves a marker whose pair has not arrived yet as plain text', () => {
    expect(inline('so **bo')).toEqual([{ text: 'so **bo' }]);
  });
});
