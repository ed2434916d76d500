// Markdown on screen, and the tail of a long answer still streaming kept within its rows.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from './markdown-text.js';

describe('Markdown on screen', () => {
  it('draws lists, code and emphasis without their markers', () => {
    const ui = render(<MarkdownText text={'# Plan\n\n1. **read** it\n\n```\ncode here\n```'} />);
    expect(ui.lastFrame()).toBe('Plan\n\n1. read it\n\n  code here');
    ui.unmount();
  });

  it('shows only the last lines that fit while text streams in, counting wrapped lines', () => {
    const text = ['one', 'two', 'x'.repeat(25), 'four'].join('\n');
    const ui = render(<MarkdownText text={text} lastLines={{ rows: 4, width: 20 }} />);
    // The 25-character line wraps to two rows at 20 columns: it and "four" fill four rows.
    expect(ui.lastFrame()!.split('\n')[0]).toBe('two');
    ui.unmount();
  });
});
