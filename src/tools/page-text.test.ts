import { describe, expect, it } from 'vitest';
import { capText, decodeBody, htmlToText, pageKind } from './page-text.js';

describe('page text', () => {
  it('reads HTML and text types, and refuses the rest', () => {
    const none = Buffer.alloc(0);
    expect(pageKind('text/html; charset=utf-8', none)).toBe('html');
    expect(pageKind('application/xhtml+xml', none)).toBe('html');
    for (const type of [
      'text/plain',
      'text/markdown',
      'application/json',
      'application/ld+json',
      'application/atom+xml',
    ]) {
      expect(pageKind(type, none), type).toBe('text');
    }
    for (const type of [
      'image/png',
      'application/pdf',
      'application/octet-stream',
      'application/zip',
    ]) {
      expect(pageKind(type, none), type).toBeUndefined();
    }
  });

  it('sniffs a body without a Content-Type: NUL bytes are binary, markup is HTML', () => {
    expect(pageKind(undefined, Buffer.from('  <!DOCTYPE html><p>x'))).toBe('html');
    expect(pageKind(undefined, Buffer.from('just words'))).toBe('text');
    expect(pageKind(undefined, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]))).toBeUndefined();
  });

  it('decodes the charset the Content-Type names, UTF-8 otherwise', () => {
    expect(
      decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=ISO-8859-1'),
    ).toBe('café');
    expect(decodeBody(Buffer.from('café'), 'text/plain; charset=no-such-charset')).toBe('café');
  });

  it('never runs or keeps scripts, and survives markup nested thousands deep', async () => {
    const deep = `${'<div>'.repeat(5000)}deep text${'</div>'.repeat(5000)}`;
    const text = await htmlToText(
      `<script>globalThis.ran = true</script><p>top</p>${deep}`,
      'https://x.test/',
    );
    expect((globalThis as { ran?: boolean }).ran).toBeUndefined();
    expect(text).toContain('top');
    expect(text).not.toContain('ran = true');
  });

  it('keeps text under the cap as it is', () => {
    expect(capText('short', 100, 'anything')).toEqual({
      text: 'short',
      omitted: 0,
      selected: false,
    });
  });

  it('without a prompt, keeps the top of a long text', () => {
    expect(capText('abcdefghij', 4, undefined)).toEqual({
      text: 'abcd',
      omitted: 6,
      selected: false,
    });
  });

  it('with a prompt, keeps the opening and the passages that share most words with it, in page order', () => {
    const text = ['Intro', 'cats purr', 'dogs bark loudly', 'filler one', 'dogs and cats'].join(
      '\n\n',
    );
    const capped = capText(text, 45, 'Why do dogs bark?');
    expect(capped).toEqual({
      text: ['Intro', '[…]', 'dogs bark loudly', '[…]', 'dogs and cats'].join('\n\n'),
      omitted: 'cats purr'.length + 'filler one'.length,
      selected: true,
    });
  });
});
