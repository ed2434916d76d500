import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manyKeysDefinition } from '../testing/hostile/hostile-definitions.js';
import { useTempDir } from '../testing/temp-dir.js';
import type { AgentLoadEntry } from './agent-load-entry.js';
import {
  DEFINITION_FILE_MAX_BYTES,
  FRONTMATTER_MAX_BYTES,
  FRONTMATTER_MAX_FIELDS,
} from './frontmatter-cap.js';
import { loadAgentFile } from './load-agent-file.js';

const dir = useTempDir('warren-frontmatter-cap-');

async function loadText(text: string, name = 'agent.md'): Promise<AgentLoadEntry> {
  const file = path.join(dir(), name);
  await writeFile(file, text);
  return loadAgentFile({ path: file, kind: 'project' });
}

describe('a frontmatter of many keys', () => {
  it('refuses 200,000 keys at the 128 KiB cap, naming the line where the cap is crossed', async () => {
    const text = manyKeysDefinition(200_000);
    const entry = await loadText(text);
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toMatch(
      /^the frontmatter is \d+ bytes, more than the 131072 \(128 KiB\) warren reads; it crosses the cap here/,
    );
    const lineAtCap = text.slice(0, FRONTMATTER_MAX_BYTES + 4).split('\n').length;
    expect(entry.error?.line).toBe(lineAtCap);
  });

  it('refuses more than 1,000 fields under the byte cap, naming the line of the first one too many', async () => {
    const entry = await loadText(manyKeysDefinition(12_000));
    expect(entry.status).toBe('error');
    expect(entry.error).toEqual({
      line: FRONTMATTER_MAX_FIELDS + 2,
      message:
        'the frontmatter has more than 1000 fields, the most warren reads; this is field 1001. Remove the fields no agent needs',
    });
  });

  it('reads the most fields it allows, each with its line', async () => {
    const count = FRONTMATTER_MAX_FIELDS - 1;
    const entry = await loadText(manyKeysDefinition(count));
    expect(entry.status).toBe('ok');
    expect(entry.definition?.description).toBe('d');
    expect(Object.keys(entry.definition?.extra ?? {})).toHaveLength(count);
  });

  it('still finds a key set twice among them, and says where', async () => {
    const count = FRONTMATTER_MAX_FIELDS - 2;
    const entry = await loadText(manyKeysDefinition(count, { duplicateLast: true }));
    expect(entry.status).toBe('ok');
    expect(entry.warnings).toContainEqual({
      line: count + 3,
      message: '`k0` is set twice (first on line 3); the later value is used',
    });
    expect(entry.definition?.extra.k0).toBe('again');
  });

  it('finds a key set twice inside a nested map as the YAML library does', async () => {
    const entry = await loadText(
      '---\ndescription: d\npermission:\n  bash: ask\n  bash: deny\n---\nbody',
    );
    expect(entry.status).toBe('ok');
    expect(entry.warnings[0]?.message).toContain('is not valid YAML');
  });
});

describe('a definition file of megabytes', () => {
  it('is refused as a Codex TOML file of 200,000 keys, naming the 1 MiB cap', async () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => `k${i} = "v"`);
    const entry = await loadText(['description = "d"', ...keys].join('\n'), 'agent.toml');
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toMatch(/^the file is \d+ bytes, more than the 1048576 \(1 MiB\)/);
  });

  it('is refused, naming its size and the cap', async () => {
    const entry = await loadText(
      `---\ndescription: d\n---\n${'x'.repeat(DEFINITION_FILE_MAX_BYTES)}`,
    );
    expect(entry.status).toBe('error');
    expect(entry.error?.message).toMatch(
      /^the file is \d+ bytes, more than the 8388608 warren reads from such a file \(shorten it\)$/,
    );
  });
});
