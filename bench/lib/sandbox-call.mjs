// The sandbox scenario, run as its own process: what the command sandbox adds to one Bash call.
// The built Bash tool runs `true` in a scratch git checkout, `calls` times with the sandbox and
// as many times without, interleaved so drift of the machine falls on both alike; the added cost
// is the difference of the medians. Prints `RESULT <json>` like the workers do.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = new URL('../../dist/', import.meta.url);
const { bashTool } = await import(new URL('tools/bash.js', dist));
const { createCommandSandbox } = await import(new URL('sandbox/command-sandbox.js', dist));
const { FileStateCache } = await import(new URL('tools/file-state.js', dist));

const { calls } = JSON.parse(process.argv[2] ?? '{"calls":40}');
const scratch = mkdtempSync(path.join(tmpdir(), 'warren-bench-sandbox-'));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  execFileSync('git', ['init', '--quiet', scratch]);
  const sandbox = createCommandSandbox();
  const availability = await sandbox.confines();
  if (!availability.confined) throw new Error(`no sandbox here: ${availability.why}`);
  const context = (withSandbox) => ({
    toolCallId: 'bench',
    signal: new AbortController().signal,
    cwd: scratch,
    allowedDirs: [scratch],
    fileState: new FileStateCache(),
    agent: { agentId: 'main', parentId: null, depth: 0, agentType: 'main', path: 'main' },
    progress: () => {},
    ...(withSandbox ? { sandbox } : {}),
  });
  const time = async (withSandbox) => {
    const started = performance.now();
    const result = await bashTool.call({ command: 'true' }, context(withSandbox));
    if (typeof result !== 'string') throw new Error(`the call failed: ${result.output}`);
    return performance.now() - started;
  };
  const sandboxed = [];
  const plain = [];
  // A few untimed rounds warm the file cache and both paths.
  for (let round = -3; round < calls; round++) {
    const [a, b] = [await time(true), await time(false)];
    if (round >= 0) {
      sandboxed.push(a);
      plain.push(b);
    }
  }
  const sample = {
    sandboxedMs: median(sandboxed),
    plainMs: median(plain),
    addedMs: median(sandboxed) - median(plain),
  };
  console.log(`RESULT ${JSON.stringify({ ok: true, samples: [sample] })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
