import { describe, expect, it } from 'vitest';
import { openEntry, sealEntry } from './sealed-record.js';

const KEY = 'wrk1_a-record-key-long-enough-to-be-accepted';
const OTHER = 'wrk1_another-key-long-enough-to-be-accepted';

describe('a workflow record entry', () => {
  it('is ciphertext in Restate and opens with the key it was sealed with', () => {
    const sealed = sealEntry({ keys: [KEY] }, 'wf_00000001', 'run', '{"result":"secret plan"}');
    expect(sealed).toMatch(/^warren-record-v1:/);
    expect(sealed).not.toContain('secret plan');
    expect(openEntry({ keys: [OTHER, KEY] }, 'wf_00000001', 'run', sealed)).toBe(
      '{"result":"secret plan"}',
    );
  });

  it('does not open with another key, under another run, or as another entry', () => {
    const sealed = sealEntry({ keys: [KEY] }, 'wf_00000001', 'item:ab#0', '"done"');
    expect(() => openEntry({ keys: [OTHER] }, 'wf_00000001', 'item:ab#0', sealed)).toThrow(
      /encrypted with a remote key this process does not have/,
    );
    expect(() => openEntry({ keys: [KEY] }, 'wf_00000002', 'item:ab#0', sealed)).toThrow();
    expect(() => openEntry({ keys: [KEY] }, 'wf_00000001', 'item:ab#1', sealed)).toThrow();
  });

  it('refuses a plain entry when this process holds a key', () => {
    const plain = sealEntry('insecure-no-auth', 'wf_00000001', 'run', '{}');
    expect(openEntry('insecure-no-auth', 'wf_00000001', 'run', plain)).toBe('{}');
    expect(() => openEntry({ keys: [KEY] }, 'wf_00000001', 'run', plain)).toThrow();
  });
});
