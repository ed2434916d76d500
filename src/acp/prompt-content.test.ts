import { describe, expect, it } from 'vitest';
import { promptContent } from './prompt-content.js';

const both = { image: true, audio: true, pdf: true };

describe('promptContent', () => {
  it('makes text of text, links and text resources, and files of images and audio', () => {
    expect(
      promptContent(
        [
          { type: 'text', text: 'Look:' },
          { type: 'resource_link', name: 'a.ts', uri: 'file:///a.ts' },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          {
            type: 'resource',
            resource: { uri: 'file:///shot.png', blob: 'iVBORw==', mimeType: 'image/png' },
          },
        ],
        both,
      ),
    ).toEqual({
      text: 'Look:\n[a.ts](file:///a.ts)',
      files: [
        { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' },
        { type: 'file', mediaType: 'image/png', data: 'iVBORw==' },
      ],
    });
  });

  it('refuses a binary resource that is not media, and data that is not base64', () => {
    const zip = { uri: 'file:///a.zip', blob: 'UEsD', mimeType: 'application/zip' };
    expect(promptContent([{ type: 'resource', resource: zip }], both)).toEqual({
      refused:
        'the embedded resource file:///a.zip is binary and not an image, audio or a PDF; send it as text',
    });
    expect(
      promptContent([{ type: 'image', data: '<script>', mimeType: 'image/png' }], both),
    ).toEqual({ refused: "prompt block 1's data is not base64: send the bytes base64-encoded" });
  });

  it('refuses media larger than any provider takes, saying how large', () => {
    const huge = 'A'.repeat(28 * 2 ** 20);
    expect(promptContent([{ type: 'image', data: huge, mimeType: 'image/png' }], both)).toEqual({
      refused: "prompt block 1 is 21 MB; the most a prompt's image may be is 20 MB",
    });
  });

  it('passes an embedded PDF as a file when the model takes PDFs, and refuses it otherwise', () => {
    const pdf = { uri: 'file:///spec.pdf', blob: 'JVBERi0=', mimeType: 'application/pdf' };
    expect(promptContent([{ type: 'resource', resource: pdf }], both)).toEqual({
      text: '',
      files: [{ type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' }],
    });
    expect(
      promptContent([{ type: 'resource', resource: pdf }], { image: true, audio: false }),
    ).toEqual({
      refused:
        "prompt block 1 (file:///spec.pdf) is a PDF, which this session's model does not take: send text",
    });
  });
});
