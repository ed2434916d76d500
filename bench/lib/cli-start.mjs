// The CLI start scenario: spawn `warren -p hi` against the mock and time, from the spawn, when
// the mock sees the CLI's reachability check (GET /v1/models) and its first model request: the
// checkout's bin/warren.js from a scratch folder, or an installed copy's node_modules/.bin/warren
// from the project it is installed in (lib/installed-cli.mjs), as a user starts it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * One CLI run in a fresh process, in a scratch folder that is also its WARREN_HOME (so its
 * transcript lands there). `nodeFlags` adds e.g. --cpu-prof; with `logModules` the sample also
 * lists the modules that loaded before the first model request. With `installed` (a project
 * folder), the run is that project's `node_modules/.bin/warren`, started through its `#!` line
 * with `node` first on PATH and the flags in NODE_OPTIONS, in the project. Returns the sample.
 */
export async function measureCliStart({
  node,
  root,
  mockURL,
  nodeFlags = [],
  logModules = false,
  installed,
}) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'warren-bench-cli-'));
  const moduleLog = path.join(scratch, 'modules.log');
  const cpuLog = path.join(scratch, 'cpu.log');
  const logFlags = [
    `--import=${path.join(import.meta.dirname, 'cpu-at-first-request.mjs')}`,
    ...(logModules ? [`--import=${path.join(import.meta.dirname, 'log-modules.mjs')}`] : []),
  ];
  try {
    await mockCall(mockURL, 'POST', '/config', { latencyMs: 0 });
    await mockCall(mockURL, 'POST', '/reset');
    const flags = [...nodeFlags, ...logFlags];
    const warrenArgs = [
      '-p',
      'hi',
      '--model',
      'openai-compatible:mock-model',
      '--base-url',
      `${mockURL}/v1`,
      '--output-format',
      'json',
    ];
    const env = {
      ...process.env,
      WARREN_HOME: scratch,
      BENCH_MODULE_LOG: moduleLog,
      BENCH_CPU_LOG: cpuLog,
    };
    const [command, args, cwd] = installed
      ? [path.join(installed, 'node_modules', '.bin', 'warren'), warrenArgs, installed]
      : [node, [...flags, path.join(root, 'bin', 'warren.js'), ...warrenArgs], scratch];
    if (installed) {
      env.PATH = `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`;
      env.NODE_OPTIONS = [process.env.NODE_OPTIONS, ...flags.map((flag) => `"${flag}"`)]
        .filter(Boolean)
        .join(' ');
    }
    const spawnedAt = performance.timeOrigin + performance.now();
    const { code, stdout, stderr } = await runToEnd(command, args, { cwd, env });
    const exitMs = performance.timeOrigin + performance.now() - spawnedAt;
    const stats = await mockCall(mockURL, 'GET', '/stats');
    const problems = [];
    if (code !== 0) problems.push(`warren exited ${code}: ${stderr.trim().slice(0, 300)}`);
    if (!stdout.includes('MOCK_HELLO')) problems.push(`unexpected output: ${stdout.slice(0, 200)}`);
    if (stats.requests !== 1)
      problems.push(`the mock saw ${stats.requests} model requests, expected 1`);
    const since = (epochMs) => (epochMs === null ? null : epochMs - spawnedAt);
    return {
      ok: problems.length === 0,
      error: problems.length > 0 ? problems.join('; ') : undefined,
      modelsGetMs: since(stats.firstModelsGetEpochMs),
      firstRequestMs: since(stats.firstPostEpochMs),
      firstRequestCpuMs: existsSync(cpuLog) ? Number(readFileSync(cpuLog, 'utf8')) : null,
      exitMs,
      ...(logModules
        ? { modulesBeforeFirstRequest: modulesBefore(moduleLog, stats.firstPostEpochMs) }
        : {}),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes the modules a CLI run loaded before its first model request, grouped by package or folder. */
export function writeModuleList({ urls, root, file }) {
  const groups = new Map();
  for (const url of urls) {
    const where = url.startsWith('node:')
      ? 'node: built-ins'
      : url.includes('/node_modules/')
        ? url.replace(/^.*\/node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')
        : path.dirname(path.relative(root, fileURLToPath(url)));
    groups.set(where, [...(groups.get(where) ?? []), url]);
  }
  const lines = [`${urls.length} modules loaded before the first model request`, ''];
  for (const [where, list] of [...groups.entries()].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`${String(list.length).padStart(4)}  ${where}`);
    for (const url of list) {
      lines.push(
        `        ${url.startsWith('file:') ? path.relative(root, fileURLToPath(url)) : url}`,
      );
    }
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Module URLs from the log that loaded before `epochMs`, in load order. */
function modulesBefore(logFile, epochMs) {
  if (!existsSync(logFile) || epochMs === null) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '))
    .filter(([at]) => Number(at) < epochMs)
    .map(([, url]) => url);
}

async function mockCall(mockURL, method, route, body) {
  const res = await fetch(`${mockURL}${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`mock ${method} ${route}: HTTP ${res.status}`);
  return res.json();
}

function runToEnd(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
