import { describe, expect, it } from 'vitest';
import { mediaAccepted } from './model-media.js';

describe('mediaAccepted', () => {
  it('accepts audio and PDFs only for providers whose API takes them', () => {
    expect(mediaAccepted('anthropic:claude-sonnet-4-5')).toEqual({
      image: true,
      audio: false,
      pdf: true,
    });
    expect(mediaAccepted('openai:gpt-4o-audio-preview')).toEqual({
      image: true,
      audio: true,
      pdf: true,
    });
    expect(mediaAccepted('openai-compatible:llama')).toEqual({
      image: true,
      audio: true,
      pdf: false,
    });
    expect(mediaAccepted(undefined)).toEqual({ image: true, audio: false, pdf: false });
  });
});
