// warren loads what a run uses and nothing else: the library's import and a plain `warren -p`
// leave the MCP and A2A SDKs, jsonc-parser, the workflow sandbox, YAML, HTML conversion,
// OpenTelemetry, Restate, Ink/React, picomatch, ipaddr.js and SQLite alone, and warren's own
// code for worktrees, MCP tools and the built-in tools' calls.
// Needs the build (dist/): it runs warren as a program would.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { homeEnv, runWarren } from './testing/cli-process.js';
import { heavyPackagesIn, onUseSourcesIn, watchModuleLoads } from './testing/loaded-modules.js';
import { useTempDir } from './testing/temp-dir.js';

const INDEX = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const dir = useTempDir('warren-load-on-use-');

function importWarren(env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', `await import(${JSON.stringify(INDEX)})`], {
      env: { PATH: process.env.PATH, ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/** `warren -p` on a scripted model answering from `script` (a file name in the test's folder). */
async function printRun(script: string, source: string) {
  await writeFile(join(dir(), script), source);
  const watch = watchModuleLoads(dir());
  const run = await runWarren(
    ['-p', 'hi', '--model', `scripted:${join(dir(), script)}`, '--output-format', 'json'],
    { cwd: dir(), env: { ...homeEnv(dir()), ...watch.env } },
  );
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toMatchObject({ is_error: false, result: 'done' });
  return watch.read();
}

describe('what warren loads', () => {
  it("import 'warren' loads no MCP or A2A SDK, JSON parser, workflow sandbox, YAML, HTML converter, OpenTelemetry, Restate, Ink, React, SQLite or fetch", async () => {
    const watch = watchModuleLoads(dir());

    expect(await importWarren(watch.env)).toBe(0);

    const loaded = watch.read();
    expect(loaded.packages.has('zod')).toBe(true);
    expect(heavyPackagesIn(loaded)).toEqual([]);
    expect(loaded.builtins.filter((name) => /sqlite|undici/.test(name))).toEqual([]);
  });

  it("import 'warren' loads no worktree isolation, MCP tool wrapper or built-in tool's call", async () => {
    const watch = watchModuleLoads(dir());

    expect(await importWarren(watch.env)).toBe(0);

    const loaded = watch.read();
    expect(loaded.sources.has('src/tools/builtin-tools.ts')).toBe(true);
    expect(onUseSourcesIn(loaded)).toEqual([]);
  });

  it('warren -p with a JSON script and nothing configured loads none of them', async () => {
    const loaded = await printRun('script.json', JSON.stringify([{ text: 'done' }]));

    expect(heavyPackagesIn(loaded)).toEqual([]);
    expect(loaded.builtins.filter((name) => /sqlite/.test(name))).toEqual([]);
  });

  it('warren -p that calls no tool loads no worktree isolation, MCP tool wrapper or tool call', async () => {
    const loaded = await printRun('script.json', JSON.stringify([{ text: 'done' }]));

    expect(loaded.sources.has('src/loop/agent-loop.ts')).toBe(true);
    expect(onUseSourcesIn(loaded)).toEqual([]);
  });

  it('warren -p loads a tool call with its first call, and only that one', async () => {
    const loaded = await printRun(
      'glob.json',
      JSON.stringify([
        { toolCalls: [{ name: 'Glob', input: { pattern: '*.json' } }] },
        { text: 'done' },
      ]),
    );

    expect(onUseSourcesIn(loaded)).toEqual(['src/tools/glob-search.ts']);
  });

  it('warren -p loads YAML when the run reads a YAML script, and nothing else of them', async () => {
    const loaded = await printRun('script.yaml', '- text: done\n');

    expect(heavyPackagesIn(loaded)).toEqual(['yaml']);
  });
});
