// Terminal colours as HTML: the styles a screen capture holds, carried from line to line.
import { describe, expect, it } from 'vitest';
import { ansiToHtml, ansiToHtmlPage } from './ansi-html.js';

describe('a terminal screen as HTML', () => {
  it('turns colours, bold and dim into styled spans, and escapes the text', () => {
    expect(ansiToHtml('\u001b[32m✓\u001b[39m a<b \u001b[1mbold\u001b[22m')).toBe(
      '<span style="color:#98c379">✓</span> a&lt;b <span style="font-weight:bold">bold</span>',
    );
  });

  it('keeps a style across lines until it is reset', () => {
    expect(ansiToHtml('\u001b[2mone\ntwo\u001b[0m three')).toBe(
      '<span style="opacity:0.6">one\ntwo</span> three',
    );
  });

  it('knows 256 colours and RGB, and draws inverse text with the colours swapped', () => {
    expect(ansiToHtml('\u001b[38;5;196mred\u001b[38;2;1;2;3mrgb\u001b[0;7mX')).toBe(
      '<span style="color:rgb(255, 0, 0)">red</span><span style="color:rgb(1, 2, 3)">rgb</span><span style="color:#16181d;background:#d7dae0">X</span>',
    );
  });

  it('makes a page of it', () => {
    expect(ansiToHtmlPage('hi', { title: 'a & b' })).toContain('<title>a &amp; b</title>');
  });
});
