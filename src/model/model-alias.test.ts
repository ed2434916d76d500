import { describe, expect, it } from 'vitest';
import { normalizeModel } from './model-alias.js';

describe('normalizeModel', () => {
  it('keeps inherit and the Claude aliases for the model layer to resolve', () => {
    expect(normalizeModel('inherit')).toEqual({ model: 'inherit' });
    expect(normalizeModel('Sonnet')).toEqual({ model: 'sonnet' });
    expect(normalizeModel('haiku')).toEqual({ model: 'haiku' });
  });

  it('reads a dated Claude id as an anthropic model, with a note', () => {
    expect(normalizeModel('claude-sonnet-4-20250514')).toEqual({
      model: 'anthropic:claude-sonnet-4-20250514',
      note: expect.stringContaining('anthropic:claude-sonnet-4-20250514'),
    });
  });

  it('reads a bare OpenAI id as an openai model', () => {
    expect(normalizeModel('gpt-5').model).toBe('openai:gpt-5');
  });

  it('keeps provider:model as written', () => {
    expect(normalizeModel('openai-compatible:qwen3')).toEqual({ model: 'openai-compatible:qwen3' });
  });

  it("reads opencode's provider/model for providers warren has", () => {
    expect(normalizeModel('anthropic/claude-opus-4-1').model).toBe('anthropic:claude-opus-4-1');
  });

  it('passes an unknown model through with a warning that says what would work', () => {
    const result = normalizeModel('fable');
    expect(result.model).toBe('fable');
    expect(result.warning).toContain('does not know the model `fable`');
    expect(result.warning).toContain('provider:model');
  });

  it('passes an unknown provider through with a warning naming it', () => {
    const result = normalizeModel('qwen-local/Qwen3.6-35B-A3B-UD-IQ4_XS.gguf');
    expect(result.model).toBe('qwen-local/Qwen3.6-35B-A3B-UD-IQ4_XS.gguf');
    expect(result.warning).toContain('provider `qwen-local`');
  });
});
