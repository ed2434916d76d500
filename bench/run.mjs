#!/usr/bin/env node
// `npm run bench`: warren against a raw-fetch baseline in the same run. Starts the mock LLM,
// runs every adapter through every scenario in fresh worker processes (repetitions interleaved
// across adapters), prints one table of medians with ratios and targets, writes results.json.
//
//   npm run bench                                   full run (5 repetitions, a few minutes)
//   npm run bench -- --quick                        2 repetitions, shorter warm-up
//   npm run bench -- --scenarios turn,cli --adapters warren --reps 3 --out /tmp/r.json
//   npm run bench -- --cpu-prof --scenarios turn    V8 profiles under bench/.tmp/prof/, then
//                                                   node bench/prof-top.mjs <file.cpuprofile>
//   npm run bench -- --against main                 that revision built in a scratch folder
//                                                   (lib/against.mjs) and run beside this
//                                                   checkout, repetitions interleaved, with a
//                                                   column of ratios: the regression guard
//
// Scenarios: turn (per-turn overhead, JSON and SSE), fanout, scale, context (tokens a parent
// keeps when it delegates reading), cache (the share of input read from Anthropic's prompt cache
// by ten siblings and a forked child, against Claude Code's behaviour), cli (warren -p start-up),
// mcp (a per-agent stdio MCP server's start, and 20 children starting theirs at once), background
// (spawn → running and memory per background child in flight), worktree (an agent worktree's
// create + remove in a 1,000-file repository, beside git's own worktree add and remove), tui (100
// children drawn by the terminal UI: the agents' throughput against print mode's, and the UI's
// CPU), remote (children on a real restate-server and a `warren restate serve` worker: spawn
// latency, the cost of one journaled step, 1,000 children at once; each beside the same child
// in-process), sandbox (what bubblewrap adds to one Bash call), protocols (one call of a one-turn
// agent in-process, through `warren mcp serve` and `warren a2a serve`, and as a `kind: remote`
// child; report only), workflow (the CPU a 1,000-item workflow adds per item beside its agents,
// and the time its resume takes to reach its first new item). Profiled timings are slower: never mix them with real runs.
//
// Adapters (adapters/*.mjs) export a `meta` literal, `default run(ctx)` (the fan-out job; returns
// the parent's final text) and optionally `explore(ctx)` (the context job): `baseline` is the
// raw-fetch reference, `warren` the library, `provider-loop` a diagnostic (the baseline's loop
// over warren's AI SDK provider) that splits warren's overhead into provider and loop. The
// targets apply to warren only. The mock's self-test: node --test bench/mock-llm-selftest.mjs
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareAgainst } from './lib/against.mjs';
import { measureCliStart, writeModuleList } from './lib/cli-start.mjs';
import { prepareInstalledCli } from './lib/installed-cli.mjs';
import { buildTable, median, summariseCell } from './lib/report.mjs';
import { scenarios } from './lib/scenarios.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const NODE = process.execPath;

// ------------------------------------------------------------------ options
const argv = process.argv.slice(2);
const KNOWN_FLAGS = [
  '--reps',
  '--quick',
  '--scenarios',
  '--adapters',
  '--cpu-prof',
  '--out',
  '--against',
];
for (const arg of argv) {
  if (arg.startsWith('--') && !KNOWN_FLAGS.includes(arg)) {
    usageError(`unknown option ${arg}; known: ${KNOWN_FLAGS.join(' ')}`);
  }
}
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const quick = argv.includes('--quick');
const againstRev = option('against', undefined);
if (argv.includes('--against') && (!againstRev || againstRev.startsWith('--'))) {
  usageError('--against needs a git revision: --against main, --against HEAD~1, --against <sha>');
}
const cpuProf = argv.includes('--cpu-prof');
const reps = Number(option('reps', quick ? 2 : 5));
if (!(Number.isInteger(reps) && reps >= 1)) usageError('--reps needs a whole number of at least 1');
// Profiled timings must never replace the real results.json.
const defaultOut = cpuProf
  ? path.join(BENCH, '.tmp', 'prof', 'results.json')
  : path.join(BENCH, 'results.json');
const out = path.resolve(option('out', defaultOut));
const SC = scenarios({ quick });
const scenarioNames = option('scenarios', Object.keys(SC).join(',')).split(',').filter(Boolean);
for (const name of scenarioNames) {
  if (!SC[name]) usageError(`--scenarios: unknown scenario ${name}; known: ${Object.keys(SC)}`);
}

function usageError(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

if (Number(process.versions.node.split('.')[0]) < 22) {
  usageError(`needs Node >= 22, this is ${process.version}: run it as \`npm run bench\``);
}
if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
  usageError('dist/ is missing: run `npm run build` first (`npm run bench` does)');
}

// ------------------------------------------------------------------ adapters
/** Reads an adapter's `meta` literal without importing it into the driver. */
function readMeta(file) {
  const source = readFileSync(file, 'utf8');
  const literal = /export const meta = (\{[^;]*\});/s.exec(source);
  if (!literal) throw new Error(`${file} has no \`export const meta = {...};\``);
  return Function(`return (${literal[1]})`)();
}

const wanted = option('adapters', '').split(',').filter(Boolean);
// `root` and `bench`: the warren (and its copy of bench/) an adapter runs; another for --against.
const adapters = readdirSync(path.join(BENCH, 'adapters'))
  .filter((file) => file.endsWith('.mjs'))
  .map((file) => ({
    file: path.join(BENCH, 'adapters', file),
    meta: readMeta(path.join(BENCH, 'adapters', file)),
    root: ROOT,
    bench: BENCH,
  }))
  .filter(({ meta }) => wanted.length === 0 || wanted.includes(meta.name))
  .sort((a, b) =>
    a.meta.name === 'baseline'
      ? -1
      : b.meta.name === 'baseline'
        ? 1
        : a.meta.name.localeCompare(b.meta.name),
  );
for (const name of wanted) {
  if (!adapters.some(({ meta }) => meta.name === name))
    usageError(`--adapters: no adapter ${name}`);
}
const against = againstRev === undefined ? undefined : addAgainst(againstRev);

/** Builds the revision and adds its warren beside this one's, right after it in the table. */
function addAgainst(rev) {
  const warren = adapters.findIndex(({ meta }) => meta.name === 'warren');
  if (warren < 0) usageError('--against compares warren: leave warren in --adapters');
  let other;
  try {
    other = prepareAgainst({ rev, root: ROOT, bench: BENCH, log: (line) => console.error(line) });
  } catch (error) {
    usageError(error.message);
  }
  const { meta } = adapters[warren];
  adapters.splice(warren + 1, 0, {
    file: path.join(other.bench, 'adapters', 'warren.mjs'),
    meta: { ...meta, name: other.name, label: `${meta.label} at ${other.commit}`, judged: false },
    root: other.root,
    bench: other.bench,
  });
  return { rev, commit: other.commit, name: other.name };
}

/** The warrens of this run: this checkout's, and with --against the other revision's. */
const warrens = () =>
  adapters.filter(({ meta }) => meta.name === 'warren' || meta.name === against?.name);

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  } catch {
    return 'not installed';
  }
}

function projectVersion() {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  try {
    const git = (...args) =>
      execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    return {
      version,
      commit: git('rev-parse', '--short', 'HEAD'),
      dirty: git('status', '--porcelain') !== '',
    };
  } catch {
    return { version, commit: null, dirty: null };
  }
}

// ------------------------------------------------------------------ processes
function startMock() {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [path.join(BENCH, 'mock-llm.mjs'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const listening = /MOCK_LLM_LISTENING (\S+)/.exec(buffer);
      if (listening) resolve({ child, url: listening[1] });
    });
    child.stderr.on('data', (chunk) => process.stderr.write(`[mock] ${chunk}`));
    child.on('exit', (code) => reject(new Error(`the mock LLM exited (${code})`)));
  });
}

function runWorker(spec, profDir) {
  return new Promise((resolve) => {
    const flags = ['--expose-gc', ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])];
    const child = spawn(
      NODE,
      [...flags, path.join(BENCH, 'lib', 'worker.mjs'), JSON.stringify(spec)],
      {
        cwd: BENCH,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), spec.timeoutMs + 15_000);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      const result = line
        ? JSON.parse(line.slice('RESULT '.length))
        : { ok: false, error: `worker exited (code ${code}, signal ${signal}) without a result` };
      if (!result.ok && stderr) result.stderrTail = stderr.slice(-1500);
      resolve(result);
    });
  });
}

const profDirFor = (name) => (cpuProf ? path.join(BENCH, '.tmp', 'prof', name) : null);

// ------------------------------------------------------------------ main
const startedAt = new Date();
const mock = await startMock();
const adapterNames = adapters.map(({ meta }) => meta.name);
console.error(
  `mock LLM at ${mock.url}; node ${process.version}; ${reps} repetitions; adapters: ${adapterNames.join(', ')}; scenarios: ${scenarioNames.join(', ')}${cpuProf ? '; PROFILING (timings not comparable)' : ''}`,
);

const runs = [];
const log = (tag, result, detail) =>
  console.error(
    `  ${tag}: ${result.ok ? detail : `FAILED ${String(result.error).split('\n')[0]}`}`,
  );

const pct = (value) => `${(100 * (value ?? 0)).toFixed(1)}%`;

/**
 * The warren-only scenarios that run one script of bench/lib per repetition, in a fresh process
 * (with the mock's URL where it talks to a model), and what one repetition's log line says.
 */
const SCRIPT_JOBS = {
  mcp: {
    file: 'mcp-start.mjs',
    detail: ([sample], scenario) =>
      `start ${sample?.startMedianMs?.toFixed(0)} ms; ${sample?.peakServersAlive} of ${scenario.children} servers alive at once; fan-out ${sample?.fanoutWallMs?.toFixed(0)} ms`,
  },
  cache: {
    file: 'cache-share.mjs',
    usesMock: true,
    detail: ([sample]) =>
      `siblings after the first read ${pct(sample?.warren?.siblingsAfterFirstShare)} of their input from the cache, the fork ${pct(sample?.warren?.forkShare)} (Claude Code model: ${pct(sample?.claudeCode?.siblingsAfterFirstShare)}, ${pct(sample?.claudeCode?.forkShare)})`,
  },
  worktree: {
    file: 'worktree-cycle.mjs',
    detail: (samples) =>
      `create+remove ${median(samples.map((sample) => sample.cycleMs))?.toFixed(0)} ms; git worktree add alone ${median(samples.map((sample) => sample.gitAddMs))?.toFixed(0)} ms`,
  },
  sandbox: {
    file: 'sandbox-call.mjs',
    detail: ([sample]) =>
      `a Bash call ${sample?.sandboxedMs?.toFixed(1)} ms in the sandbox, ${sample?.plainMs?.toFixed(1)} ms without: +${sample?.addedMs?.toFixed(1)} ms`,
  },
  tui: {
    file: 'tui-render.mjs',
    usesMock: true,
    detail: ([sample]) =>
      `throughput ${pct(sample?.throughputRatio)} of print mode; UI CPU ${pct(sample?.uiCpuShare)} of a core; ${sample?.drawsPerSecond?.toFixed(1)} draws/s`,
  },
  protocols: {
    file: 'protocol-calls.mjs',
    detail: ([sample]) =>
      `one call: in-process ${sample?.inProcessMs?.toFixed(1)} ms, MCP ${sample?.mcpCallMs?.toFixed(1)} ms, A2A ${sample?.a2aCallMs?.toFixed(1)} ms, kind: remote child ${sample?.remoteChildMs?.toFixed(1)} ms`,
  },
  workflow: {
    file: 'workflow-overhead.mjs',
    usesMock: true,
    detail: ([sample]) =>
      `${sample?.cpuMsPerItem?.toFixed(3)} ms CPU per item; resume with 990 done: first new item after ${sample?.resumeFirstNewMs?.toFixed(0)} ms; items after the first read ${pct(sample?.itemsAfterFirstCacheShare)} of their input from the cache`,
  },
  remote: {
    file: 'remote-scale.mjs',
    usesMock: true,
    detail: ([sample]) =>
      `spawn ${sample?.spawnRemoteMs?.toFixed(1)} ms (in-process ${sample?.spawnLocalMs?.toFixed(1)}); ${sample?.perStepMs?.toFixed(2)} ms per journaled step; ${sample?.remotePerSecond?.toFixed(0)} children/s (in-process ${sample?.localPerSecond?.toFixed(0)})`,
  },
};

try {
  for (const name of scenarioNames) {
    const scenario = SC[name];
    if (scenario.job === 'cli') {
      await runCli(scenario);
      continue;
    }
    if (scenario.job === 'background') {
      await runBackground(scenario);
      continue;
    }
    const script = SCRIPT_JOBS[scenario.job];
    if (script) {
      await runScriptJob(scenario, script);
      continue;
    }
    for (const mode of scenario.modes) {
      // Repetition-major, so slow drift of the machine spreads over every adapter alike.
      for (let rep = 0; rep < reps; rep++) {
        for (const { file, meta } of adapters) {
          if (scenario.job === 'explore' && !meta.explores) continue;
          const spec = {
            adapter: file,
            mockURL: mock.url,
            job: scenario.job,
            stream: mode === 'sse',
            alwaysStreams: meta.alwaysStreams === true,
            n: scenario.n,
            k: scenario.k,
            latencyMs: scenario.latencyMs,
            warmup: scenario.warmup,
            iterations: scenario.iterations,
            sampleRss: scenario.sampleRss === true,
            timeoutMs: scenario.timeoutMs,
          };
          const started = Date.now();
          const result = await runWorker(
            spec,
            profDirFor(`${name}-${mode}-${meta.name}-${rep + 1}`),
          );
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const detail =
            scenario.job === 'explore'
              ? `parent tokens ${result.samples?.[0]?.delegated.parentTokens} delegated vs ${result.samples?.[0]?.single.parentTokens} single (${seconds} s)`
              : `wall ${median(result.samples?.map((s) => s.wallMs) ?? [])?.toFixed(1)} ms (${seconds} s with start and warm-up)`;
          log(`${name}/${mode} rep ${rep + 1}/${reps} ${meta.name}`, result, detail);
          runs.push({ adapter: meta.name, scenario: name, mode, rep, ...result });
        }
      }
    }
  }
} finally {
  mock.child.kill('SIGTERM');
}

/**
 * warren's CLI only: one untimed run to warm the file cache, then `runs` timed ones; each run
 * twice, the checkout's bin/warren.js and the same warren installed in a project of its own.
 */
async function runCli(scenario) {
  const installs = new Map();
  for (const { meta, root } of warrens()) {
    try {
      installs.set(meta.name, prepareInstalledCli({ root, log: (line) => console.error(line) }));
    } catch (error) {
      console.error(`  cli ${meta.name}: no installed copy, its rows stay empty: ${error.message}`);
    }
  }
  const failed = new Set();
  for (let rep = -1; rep < scenario.runs; rep++) {
    for (const { meta, root } of warrens()) {
      if (failed.has(meta.name)) continue;
      const ok = await runCliOnce(rep, meta.name, root, installs.get(meta.name));
      if (!ok) failed.add(meta.name);
    }
  }
}

async function runCliOnce(rep, name, root, installed) {
  const measure = async (label, where, options) => {
    const profDir = rep >= 0 ? profDirFor(`${label}-${name}-${rep + 1}`) : null;
    const nodeFlags = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
    const logModules = profDir !== null && rep === 0;
    const sample = await measureCliStart({
      node: NODE,
      root,
      mockURL: mock.url,
      nodeFlags,
      logModules,
      ...options,
    });
    if (logModules) {
      const file = path.join(profDir, 'modules-before-first-request.txt');
      writeModuleList({ urls: sample.modulesBeforeFirstRequest ?? [], root: where, file });
      console.error(
        `  modules loaded before the first request: ${path.relative(process.cwd(), file)}`,
      );
    }
    const { modulesBeforeFirstRequest, ...kept } = sample;
    return kept;
  };
  const checkout = await measure('cli', root, {});
  const fromProject = installed
    ? await measure('cli-installed', installed, { installed })
    : undefined;
  const ok = checkout.ok && (fromProject?.ok ?? true);
  if (rep < 0 && ok) return true;
  const error = [checkout.error, fromProject?.error && `installed: ${fromProject.error}`]
    .filter(Boolean)
    .join('; ');
  const sample = { ...checkout, ok, error: error || undefined, installed: fromProject };
  log(
    `cli run ${rep + 1}/${SC.cli.runs} ${name}`,
    sample,
    `first request after ${checkout.firstRequestMs?.toFixed(0)} ms, installed ${fromProject?.firstRequestMs?.toFixed(0) ?? '-'} ms`,
  );
  runs.push({
    adapter: name,
    scenario: 'cli',
    mode: 'json',
    rep,
    ok,
    error: sample.error,
    samples: [sample],
  });
  return ok;
}

/** warren only: the background worker in a fresh process per repetition. */
async function runBackground(scenario) {
  for (let rep = 0; rep < reps; rep++) {
    for (const { meta, bench } of warrens()) {
      await runBackgroundOnce(scenario, rep, meta.name, bench);
    }
  }
}

async function runBackgroundOnce(scenario, rep, name, bench) {
  const profDir = profDirFor(`background-${name}-${rep + 1}`);
  const flags = ['--expose-gc', ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])];
  const result = await runWithFlags(
    [...flags, path.join(bench, 'lib', 'background-worker.mjs'), JSON.stringify(scenario)],
    scenario.timeoutMs,
  );
  log(
    `background rep ${rep + 1}/${reps} ${name}`,
    result,
    `spawn → running ${result.spawnToRunningMedianMs?.toFixed(2)} ms, ${result.rssPerChildKiB?.toFixed(1)} KiB RSS per child`,
  );
  runs.push({
    adapter: name,
    scenario: 'background',
    mode: 'json',
    rep,
    ok: result.ok,
    error: result.error,
    samples: result.ok ? [result] : [],
  });
}

/**
 * Runs node with `args` (flags, a script, its argument) that prints one `RESULT <json>` line;
 * kills it after `timeoutMs`, if given.
 */
function runWithFlags(args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(NODE, args, { cwd: BENCH, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const killer =
      timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      const result = line
        ? JSON.parse(line.slice('RESULT '.length))
        : { ok: false, error: `exited (code ${code}, signal ${signal}) without a result` };
      if (!result.ok && stderr) result.stderrTail = stderr.slice(-1500);
      resolve(result);
    });
  });
}

/** warren only: each repetition a fresh process running the job's script. */
async function runScriptJob(scenario, { file, usesMock = false, detail }) {
  const [mode] = scenario.modes;
  const argument = JSON.stringify(usesMock ? { ...scenario, mockURL: mock.url } : scenario);
  for (let rep = 0; rep < reps; rep++) {
    for (const { meta, bench } of warrens()) {
      const result = await runWithFlags([path.join(bench, 'lib', file), argument]);
      log(
        `${scenario.job} rep ${rep + 1}/${reps} ${meta.name}`,
        result,
        detail(result.samples ?? [], scenario),
      );
      runs.push({ adapter: meta.name, scenario: scenario.job, mode, rep, ...result });
    }
  }
}

// ------------------------------------------------------------------ summary and table
const summary = {};
for (const name of adapterNames) {
  const mine = runs.filter((run) => run.adapter === name);
  const imported = mine.filter((run) => run.ok && run.importMs !== undefined);
  const importMs = median(imported.map((run) => run.importMs));
  const importCpuMs = median(imported.map((run) => run.importCpuMs));
  summary[name] = importMs === null ? {} : { import: { importMs, importCpuMs } };
  for (const scenarioName of scenarioNames) {
    for (const mode of SC[scenarioName].modes) {
      const cellRuns = mine.filter((run) => run.scenario === scenarioName && run.mode === mode);
      if (cellRuns.length === 0) continue;
      const failed = cellRuns.find((run) => !run.ok);
      const samples = cellRuns.filter((run) => run.ok).flatMap((run) => run.samples);
      summary[name][`${scenarioName}.${mode}`] = failed
        ? { failed: true, error: String(failed.error).split('\n')[0] }
        : summariseCell(SC[scenarioName], samples);
    }
  }
}

const footnotes = {};
for (const { meta } of adapters) {
  if (meta.alwaysStreams && scenarioNames.includes('turn')) {
    footnotes[meta.name] = {
      mark: '*',
      cells: ['turn.json'],
      text: `${meta.name} has no non-streaming model call: in the JSON rows it streams every request (SSE) while the baseline reads JSON.`,
    };
  }
}
const judged = adapters
  .filter(({ meta }) => meta.name !== 'baseline' && meta.judged !== false)
  .map(({ meta }) => meta.name);
const { text: table, verdicts } = buildTable({
  sc: SC,
  adapters: adapterNames,
  judged,
  summary,
  footnotes,
  against: against && { name: against.name, of: 'warren' },
});
const cpuModel = os.cpus()[0]?.model ?? 'unknown';
const legend = `Medians over ${reps} fresh processes per cell (turn: ${SC.turn.iterations} runs each after ${SC.turn.warmup.length} warm-up runs; cli: ${SC.cli.runs} runs). Node ${process.version}, ${os.cpus().length} × ${cpuModel}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB.`;
console.log(`\n${table}\n\n${legend}`);

const failures = runs.filter((run) => !run.ok);
if (failures.length > 0) {
  console.log('\nFailures:');
  for (const run of failures) {
    console.log(`  ${run.adapter} ${run.scenario}/${run.mode} rep ${run.rep + 1}: ${run.error}`);
    if (run.stderrTail)
      console.log(`    stderr: ${run.stderrTail.split('\n').slice(-5).join('\n    ')}`);
  }
}

const results = {
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  options: { reps, quick, cpuProf, scenarios: scenarioNames },
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel,
    totalMemGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    platform: `${os.platform()} ${os.release()}`,
  },
  warren: projectVersion(),
  ...(against ? { against } : {}),
  adapters: adapters.map(({ meta }) => ({
    ...meta,
    versions: Object.fromEntries((meta.packages ?? []).map((name) => [name, packageVersion(name)])),
  })),
  scenarios: Object.fromEntries(scenarioNames.map((name) => [name, SC[name]])),
  summary,
  verdicts,
  table,
  legend,
  runs,
};
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
formatIfInProject(out);
console.error(`\nwrote ${path.relative(process.cwd(), out) || out}`);
process.exitCode = failures.length > 0 ? 1 : 0;

/** results.json lives in the repository, where `npm run check` formats-checks every JSON file. */
function formatIfInProject(file) {
  const biome = path.join(ROOT, 'node_modules', '.bin', 'biome');
  const relative = path.relative(ROOT, file);
  // Outside the project, or in an ignored scratch folder (profiles): biome does not check it.
  if (relative.startsWith('..') || relative.split(path.sep).includes('.tmp')) return;
  if (!existsSync(biome)) return;
  execFileSync(biome, ['format', '--write', file], { cwd: ROOT, stdio: 'ignore' });
}
