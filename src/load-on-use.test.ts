// warren loads what a run uses and nothing else: the library's import and a plain `warren -p`
// leave the MCP and A2A SDKs, jsonc-parser, the workflow sandbox, YAML, HTML conversion,
// OpenTelemetry, Restate, Ink/React, picomatch, ipaddr.js and SQLite alone, and warren's own
// code for worktrees, MCP tools, the built-in tools' calls and the project trust checks (loaded
// when the project has something to trust).
// Needs the build (dist/): it runs warren as a program would.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { homeEnv, runWarren } from './testing/cli-process.js';
import { heavyPackagesIn, onUseSourcesIn, watchModuleLoads } from './testing/loaded-modules.js';
import { useTempDir } from './testing/temp-dir.js';

const INDEX = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const dir = useTempDir('warren-load-on-use-');

/** warren's code that `import 'warren'` leaves to the first query(). */
const WARREN_LOADED_WITH_THE_FIRST_QUERY = [
  'src/run/start-run.ts',
  'src/loop/agent-loop.ts',
  'src/agents/agent-tool.ts',
  'src/tools/builtin-tools.ts',
  'src/tools/bash.ts',
  'src/hooks/session-hooks.ts',
];

function importWarren(env: Record<string, string>): Promise<number | null> {
  return runNode(`await import(${JSON.stringify(INDEX)})`, env);
}

/** A module's source run by `node -e` in a fresh process; its exit code. */
function runNode(source: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
      env: { PATH: process.env.PATH, ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/**
 * `warren -p` in a project folder of its own (not the home folder, whose files are the person's
 * own), on a scripted model answering from `script` (a file name in the project).
 */
async function printRun(
  script: string,
  source: string,
  expectStderr = (text: string) => expect(text).toBe(''),
) {
  const project = join(dir(), 'project');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, script), source);
  const watch = watchModuleLoads(dir());
  const run = await runWarren(
    ['-p', 'hi', '--model', `scripted:${join(project, script)}`, '--output-format', 'json'],
    { cwd: project, env: { ...homeEnv(dir()), ...watch.env } },
  );
  expectStderr(run.stderr);
  expect(JSON.parse(run.stdout)).toMatchObject({ is_error: false, result: 'done' });
  return watch.read();
}

describe('what warren loads', () => {
  it("import 'warren' loads no MCP or A2A SDK, JSON parser, workflow sandbox, YAML, HTML converter, OpenTelemetry, Restate, Ink, React, SQLite, fetch, crypto, sockets or child processes", async () => {
    const watch = watchModuleLoads(dir());

    expect(await importWarren(watch.env)).toBe(0);

    const loaded = watch.read();
    expect(loaded.packages.has('zod')).toBe(true);
    expect(heavyPackagesIn(loaded)).toEqual([]);
    expect(
      loaded.builtins.filter((name) =>
        /sqlite|undici|crypto|child_process|NativeModule (net|dns)\b/.test(name),
      ),
    ).toEqual([]);
  });

  it("import 'warren' loads no worktree isolation, MCP tool wrapper or built-in tool's call", async () => {
    const watch = watchModuleLoads(dir());

    expect(await importWarren(watch.env)).toBe(0);

    const loaded = watch.read();
    expect(loaded.sources.has('src/query.ts')).toBe(true);
    expect(onUseSourcesIn(loaded)).toEqual([]);
  });

  it("import 'warren' loads the run's code (its loop, tools, Agent tool, hooks, plan) only with the first query()", async () => {
    const watch = watchModuleLoads(dir());

    expect(await importWarren(watch.env)).toBe(0);

    const loaded = watch.read();
    expect(loaded.sources.has('src/definitions/define-agent.ts')).toBe(true);
    expect(WARREN_LOADED_WITH_THE_FIRST_QUERY.filter((file) => loaded.sources.has(file))).toEqual(
      [],
    );
  });

  it("a query() loads the run's code and runs", async () => {
    const watch = watchModuleLoads(dir());
    const script = join(dir(), 'script.json');
    await writeFile(script, JSON.stringify([{ text: 'done' }]));
    const run = `
      const { query } = await import(${JSON.stringify(INDEX)});
      const q = query({ prompt: 'hi', options: { model: 'scripted:' + ${JSON.stringify(script)}, cwd: ${JSON.stringify(dir())} } });
      let result;
      for (;;) { const step = await q.next(); if (step.done) { result = step.value; break; } }
      if (result.result !== 'done') process.exit(3);
    `;

    expect(await runNode(run, { ...homeEnv(dir()), ...watch.env })).toBe(0);

    const loaded = watch.read();
    expect(WARREN_LOADED_WITH_THE_FIRST_QUERY.filter((file) => !loaded.sources.has(file))).toEqual(
      [],
    );
  });

  it('warren -p with a JSON script and nothing configured loads none of them, nor child processes', async () => {
    const loaded = await printRun('script.json', JSON.stringify([{ text: 'done' }]));

    expect(heavyPackagesIn(loaded)).toEqual([]);
    expect(loaded.builtins.filter((name) => /sqlite|child_process/.test(name))).toEqual([]);
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

  it('warren -p loads the project trust checks when the project has a hook, and leaves it out', async () => {
    await mkdir(join(dir(), 'project', '.warren'), { recursive: true });
    await writeFile(
      join(dir(), 'project', '.warren', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] } }),
    );

    const loaded = await printRun('script.json', JSON.stringify([{ text: 'done' }]), (stderr) =>
      expect(stderr).toMatch(/^warren: untrusted project: .*not applied/),
    );

    expect(onUseSourcesIn(loaded)).toContain('src/cli/trust/run-trust.ts');
  });

  it('warren -p loads the background command runner when the run starts a background task', async () => {
    const loaded = await printRun(
      'background.json',
      JSON.stringify([
        { toolCalls: [{ name: 'Bash', input: { command: 'true', run_in_background: true } }] },
        { text: 'started' },
        // The turn after the task's notification.
        { text: 'done' },
      ]),
    );

    expect(onUseSourcesIn(loaded)).toEqual(
      expect.arrayContaining([
        'src/tasks/background-bash-launch.ts',
        'src/tasks/local-bash-executor.ts',
      ]),
    );
  });

  it('warren -p loads YAML when the run reads a YAML script, and nothing else of them', async () => {
    const loaded = await printRun('script.yaml', '- text: done\n');

    expect(heavyPackagesIn(loaded)).toEqual(['yaml']);
  });
});
