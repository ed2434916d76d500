import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../testing/temp-dir.js';
import { loadAgentMemory, MEMORY_MAX_LINES } from './agent-memory.js';
import { memorySection } from './memory-section.js';

const sandbox = useTempDir('warren-memory-');
const places = () => ({ projectDir: sandbox(), warrenHome: path.join(sandbox(), 'home') });

describe('agent memory', () => {
  it(`shows the first ${MEMORY_MAX_LINES} lines of MEMORY.md and says it was cut`, async () => {
    const dir = path.join(sandbox(), '.warren', 'agent-memory', 'noter');
    await mkdir(dir, { recursive: true });
    const lines = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`);
    await writeFile(path.join(dir, 'MEMORY.md'), lines.join('\n'));
    const { memory } = await loadAgentMemory('noter', 'project', places());
    expect(memory?.text.split('\n')).toHaveLength(MEMORY_MAX_LINES);
    expect(memory?.cut).toBe(true);
    expect(memorySection(memory!).text).toContain(
      '[Only the first 200 lines (25 KB) of MEMORY.md are shown: shorten it.]',
    );
  });

  it('shows at most 25 KB of one long line', async () => {
    const dir = path.join(sandbox(), 'home', 'agent-memory', 'noter');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'MEMORY.md'), 'x'.repeat(40_000));
    const { memory } = await loadAgentMemory('noter', 'user', places());
    expect(memory?.text).toHaveLength(25 * 1024);
    expect(memory?.cut).toBe(true);
  });

  it('is an empty memory, not an error, before the first write', async () => {
    const loaded = await loadAgentMemory('fresh', 'local', places());
    expect(loaded).toEqual({
      memory: {
        scope: 'local',
        dir: path.join(sandbox(), '.warren', 'agent-memory-local', 'fresh'),
        text: '',
        cut: false,
      },
    });
  });
});
