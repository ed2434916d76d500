// What the model reads from each kind of MCP tool result.
import { describe, expect, it } from 'vitest';
import { MAX_RESULT_CHARS, toolOutputOf } from './tool-result.js';

describe('an MCP tool result', () => {
  it('keeps text, and describes images, audio, resource links and resources in a line each', () => {
    const output = toolOutputOf({
      content: [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          name: 'notes',
          uri: 'file:///n.txt',
          mimeType: 'text/plain',
          description: 'the notes',
        },
        { type: 'resource', resource: { uri: 'mem://a', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA', mimeType: 'image/gif' } },
      ],
    });
    expect(output).toBe(
      [
        'Here it is:',
        '[image: image/png, 3 bytes, not shown]',
        '[audio: audio/wav, 4 bytes, not shown]',
        '[resource link: notes <file:///n.txt> (text/plain, the notes)]',
        '[resource <mem://a>]\ninline text',
        '[resource <mem://b>: image/gif, 3 bytes, not shown]',
      ].join('\n'),
    );
  });

  it('adds structured content as JSON, once when the text already repeats it', () => {
    const structured = { temperature: 21, unit: 'C' };
    expect(toolOutputOf({ content: [], structuredContent: structured })).toBe(
      JSON.stringify(structured),
    );
    expect(
      toolOutputOf({
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      }),
    ).toBe(JSON.stringify(structured));
  });

  it('sends a file once when the text and the structured content both carry it', () => {
    const file = 'line one\nline "two"\n'.repeat(3);
    expect(
      toolOutputOf({
        content: [{ type: 'text', text: file }],
        structuredContent: { content: file },
      }),
    ).toBe(file);
  });

  it('adds structured content the text does not carry', () => {
    expect(
      toolOutputOf({
        content: [{ type: 'text', text: 'Done.' }],
        structuredContent: { id: 'job-7', ok: true },
      }),
    ).toBe('Done.\n{"id":"job-7","ok":true}');
  });

  it('is an error result when the server flags it', () => {
    expect(
      toolOutputOf({ content: [{ type: 'text', text: 'no such file' }], isError: true }),
    ).toEqual({ output: 'no such file', isError: true });
  });

  it('is cut when a server answers with more than the model should read', () => {
    const output = toolOutputOf({
      content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_CHARS + 10) }],
    });
    expect(output).toMatch(/\[Truncated: the server's answer had 10 more characters\.\]$/);
  });
});
