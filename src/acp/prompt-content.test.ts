import { describe, expect, it } from 'vitest';
import { mediaAccepted, promptContent } from './prompt-content.js';

const both = { image: true, audio: true };

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

  it('refuses a binary resource that is neither image nor audio, and data that is not base64', () => {
    expect(
      promptContent(
        [
          {
            type: 'resource',
            resource: { uri: 'file:///a.pdf', blob: 'JVBE', mimeType: 'application/pdf' },
          },
        ],
        both,
      ),
    ).toEqual({
      refused:
        'the embedded resource file:///a.pdf is binary and neither an image nor audio; send it as text',
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

  it('accepts audio only for providers whose API takes it', () => {
    expect(mediaAccepted('anthropic:claude-sonnet-4-5')).toEqual({ image: true, audio: false });
    expect(mediaAccepted('openai:gpt-4o-audio-preview')).toEqual({ image: true, audio: true });
    expect(mediaAccepted(undefined)).toEqual({ image: true, audio: false });
  });
});
