// The whole shared corpus of real definition files (976, from 13 public repositories). It lives
// beside the repository in the warren workspace (or where WARREN_AGENT_CORPUS says, for a
// worktree elsewhere), so a lone clone skips this test, saying why.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AgentDefinitionsResult, loadAgentDefinitions } from './load-agent-definitions.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
// Beside the main checkout (`../shared`), or beside the folder of worktrees (`../../shared`).
const corpusDir =
  process.env.WARREN_AGENT_CORPUS ??
  [
    path.resolve(repoRoot, '../shared/corpus/agents'),
    path.resolve(repoRoot, '../../shared/corpus/agents'),
  ].find((dir) => existsSync(dir)) ??
  path.resolve(repoRoot, '../shared/corpus/agents');
const present = existsSync(corpusDir);

describe.skipIf(!present)('loading the shared corpus of 976 real definition files', () => {
  let result: AgentDefinitionsResult;
  beforeAll(async () => {
    result = await loadAgentDefinitions({
      cwd: corpusDir,
      homeDir: corpusDir,
      agentsDirs: [corpusDir],
      builtins: false,
    });
  });

  it('loads every agent file: no crash and no error entry', () => {
    const { entries } = result;
    // The corpus's own SOURCES.md sits in the folder too; it is documentation, not an agent.
    const agentFiles = entries.filter(
      (entry) => path.basename(entry.source.path!) !== 'SOURCES.md',
    );
    expect(agentFiles).toHaveLength(976);
    expect(agentFiles.filter((entry) => entry.status === 'error')).toEqual([]);
    for (const entry of agentFiles) {
      expect(entry.definition?.description.trim()).not.toBe('');
      expect(entry.definition?.prompt.trim()).not.toBe('');
    }
  });

  it('reports SOURCES.md as the only error: a file without frontmatter', () => {
    const { entries } = result;
    const errors = entries.filter((entry) => entry.status === 'error');
    expect(errors.map((entry) => path.relative(corpusDir, entry.source.path!))).toEqual([
      'SOURCES.md',
    ]);
    expect(errors[0]?.error?.message).toContain('no frontmatter');
  });

  it('recovers the 20 files that are not valid YAML and says so in each', () => {
    const { entries } = result;
    const recovered = entries.filter((entry) =>
      entry.warnings.some((warning) => warning.message.includes('is not valid YAML')),
    );
    expect(recovered).toHaveLength(20);
  });

  it('names the 61 files without `name` after their files', () => {
    const { entries } = result;
    const unnamed = entries.filter((entry) =>
      entry.warnings.some((w) => w.message.startsWith('no `name`')),
    );
    expect(unnamed).toHaveLength(61);
    for (const entry of unnamed) {
      expect(entry.name).toBe(path.basename(entry.source.path!, '.md'));
    }
  });

  it('resolves each name to one definition and marks the other copies overridden', () => {
    const { definitions, entries } = result;
    const loaded = entries.filter((entry) => entry.status !== 'error');
    expect(new Set(loaded.map((entry) => entry.name)).size).toBe(definitions.size);
    expect(loaded.filter((entry) => entry.status === 'ok')).toHaveLength(definitions.size);
  });
});

describe.skipIf(present)('loading the shared corpus', () => {
  it.skip(`skipped: ${corpusDir} is absent (the corpus sits beside the repository in the warren workspace, not in a lone clone)`, () => {});
});
