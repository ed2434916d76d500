// A Restate worker's child planned as a run is: its runtime from the run's defaults, with what
// its spec fixes (definitions, depth) and the date its first start read.
import { describe, expect, it } from 'vitest';
import { RUN_KNOBS } from '../core/run-knobs.js';
import { checkChildSpec } from '../remote/child-spec-schema.js';
import { workerRuntime } from './worker-child.js';

const spec = checkChildSpec({
  agentId: 'agent_w1',
  parentId: 'main',
  depth: 1,
  agentPath: 'main/Agent#1/helper',
  description: 'helper',
  prompt: 'hi',
  definition: { name: 'helper', description: 'Helps.', prompt: 'Help.' },
  definitions: [{ name: 'scout', description: 'Scouts.', prompt: 'Scout.' }],
  tools: ['Read'],
  model: { spec: 'openai-compatible:test-model' },
  cwd: process.cwd(),
  budget: { maxTurns: 3 },
  permissions: { mode: 'default', allow: [], deny: [], ask: [] },
  maxDepth: 2,
  calls: {},
});

describe('workerRuntime', () => {
  it('takes the depth and definitions its spec fixes, and every other knob from the run’s table', () => {
    const runtime = workerRuntime(spec, { startedAt: Date.UTC(2026, 0, 2, 23, 59) });
    expect(runtime.maxDepth).toBe(2);
    expect(runtime.resultMaxChars).toBe(RUN_KNOBS.resultMaxChars);
    expect(runtime.fileStateMaxEntries).toBe(RUN_KNOBS.fileStateMaxEntries);
    expect(runtime.stallTimeoutMs).toBe(RUN_KNOBS.stallTimeoutMs);
    expect([...runtime.definitions.keys()]).toEqual(
      expect.arrayContaining(['general-purpose', 'helper', 'scout']),
    );
  });

  it('names the date its first start read in every prompt, so a replay sends the same bytes', () => {
    const runtime = workerRuntime(spec, { startedAt: Date.UTC(2026, 0, 2, 12) });
    expect(runtime.sessionDate).toBe('2026-01-02');
  });
});
