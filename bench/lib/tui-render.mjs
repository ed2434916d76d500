// The terminal UI scenario, run as its own process: the fan-out job (N children at once, K turns
// each, streamed, against the mock LLM) run alternately as print mode runs it (every event to
// the transcript, the agent tree and the text output) and through the terminal UI (the same,
// plus the real App drawn by Ink to a terminal of 120×40 that counts what it is sent). Reports
// the agents' throughput with the UI on as a share of print mode's, and the UI's CPU as a share
// of one core: (CPU with the UI − CPU without) ÷ wall time with the UI. Prints `RESULT <json>`.
//
//   node bench/lib/tui-render.mjs '{"mockURL":"…","n":100,"k":3,"latencyMs":200,"iterations":3}'
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { PassThrough, Writable } from 'node:stream';
import { lookupTool } from '../adapters/warren.mjs';
import {
  CHILD_AGENT_DESCRIPTION,
  CHILD_AGENT_TYPE,
  CHILD_INSTRUCTIONS,
  checkFinalAnswer,
  LOOKUP_TOOL_NAME,
  PARENT_INSTRUCTIONS,
  PARENT_PROMPT,
} from './workload.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { query, resolveModel } = await import(new URL('index.js', dist));
const { createPermissionPolicy } = await import(
  new URL('permissions/create-permission-policy.js', dist)
);
const { TranscriptWriter } = await import(new URL('session/transcript-writer.js', dist));
const { EventFeed } = await import(new URL('session/event-feed.js', dist));
// The session's background tasks, as run-setup.ts opens them (the job starts none).
const { openSessionTasks } = await import(new URL('tasks/session-tasks.js', dist));
const { AgentTree } = await import(new URL('telemetry/agent-tree.js', dist));
const { textOutput } = await import(new URL('cli/print/output-format.js', dist));
const { ChangeFeed } = await import(new URL('cli/tui/change-feed.js', dist));
const { InteractiveSession } = await import(new URL('cli/tui/interactive-session.js', dist));
// As `warren` loads them: React's production build.
const { startUi } = await (await import(new URL('cli/tui/load-ui.js', dist))).loadUi();
const { themeFor } = await import(new URL('cli/tui/theme.js', dist));

const spec = JSON.parse(process.argv[2]);
const scratch = mkdtempSync(path.join(tmpdir(), 'warren-bench-tui-'));
const model = resolveModel('openai-compatible:mock-model', { baseUrl: `${spec.mockURL}/v1` });
const permissions = createPermissionPolicy({ mode: 'bypassPermissions' });

/** The options of one run, as run-setup.ts would make them for this job. */
function optionsFor({ agentId, signal, messages, transcript, tasks, onEvent, waitForBackground }) {
  return {
    model,
    systemPrompt: PARENT_INSTRUCTIONS,
    tools: [lookupTool],
    agents: {
      [CHILD_AGENT_TYPE]: {
        description: CHILD_AGENT_DESCRIPTION,
        prompt: CHILD_INSTRUCTIONS,
        tools: [LOOKUP_TOOL_NAME],
        maxTurns: spec.k + 2,
      },
    },
    stream: true,
    maxParallel: Math.max(10, spec.n),
    maxDepth: 1,
    retry: { maxRetries: 0 },
    cwd: scratch,
    permissions,
    agentId,
    signal,
    messages,
    transcriptPathFor: (id) => transcript.pathFor(id),
    tasks,
    onEvent,
    ...(waitForBackground === undefined ? {} : { waitForBackground }),
  };
}

async function mock(method, route, body) {
  const res = await fetch(`${spec.mockURL}${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`mock ${method} ${route}: HTTP ${res.status}`);
  return res.json();
}

/** Print mode's loop (print-mode.ts): transcript, agent tree and text output for every event, once. */
async function printRun(index) {
  const sessionDir = path.join(scratch, 'print');
  const sessionId = `print-${index}`;
  const feed = new EventFeed({
    transcript: new TranscriptWriter({ sessionDir, sessionId, mainAgentId: 'main' }),
  });
  const tree = new AgentTree({ transcriptOf: (id) => feed.transcript.pathFor(id) });
  const output = textOutput({
    sessionId,
    permissionMode: 'bypassPermissions',
    stdout: () => {},
    stderr: () => {},
    verbose: false,
  });
  feed.subscribe((event) => {
    tree.observe(event);
    output.event(event);
  });
  const signal = new AbortController().signal;
  const { outcome: text, ...sample } = await timed(async () => {
    const tasks = openSessionTasks(sessionDir, { sessionId, signal, onEvent: feed.record });
    let result;
    try {
      const run = query({
        prompt: PARENT_PROMPT,
        options: optionsFor({
          agentId: 'main',
          signal,
          messages: [],
          transcript: feed.transcript,
          tasks: tasks.manager,
          onEvent: feed.record,
        }),
      });
      result = (await feed.drain(run)).result;
    } finally {
      await tasks.close();
    }
    return result;
  });
  feed.close();
  return { text, ...sample };
}

/** A terminal that takes everything Ink sends and counts it. */
function fakeTerminal() {
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      stdout.bytes += chunk.length;
      stdout.writes++;
      done();
    },
  });
  Object.assign(stdout, { isTTY: true, columns: 120, rows: 40, bytes: 0, writes: 0 });
  const stdin = new PassThrough();
  Object.assign(stdin, {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  return { stdin, stdout, env: {} };
}

/** The same job through the terminal UI, as `warren` runs a prompt typed into it. */
async function uiRun(index) {
  const feed = new ChangeFeed({ intervalMs: 150 });
  const setup = {
    cwd: scratch,
    agents: { definitions: new Map(), entries: [] },
    permissionMode: 'bypassPermissions',
    permissions,
    modelName: 'mock-model',
    systemPrompt: PARENT_INSTRUCTIONS,
    sessionDir: path.join(scratch, 'ui'),
    sessionId: `ui-${index}`,
    history: [],
    warnings: [],
    openTasks: (params) => openSessionTasks(path.join(scratch, 'ui'), params),
    queryOptions: optionsFor,
    observe: () => {},
    close: async () => {},
  };
  const session = new InteractiveSession(setup, { onChange: feed.changed });
  const terminal = fakeTerminal();
  // Mounted before and unmounted after the timing: once per session, not per prompt.
  const ui = startUi({ session, feed, terminal, theme: themeFor({}) });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const { outcome: _none, ...sample } = await timed(async () => {
    session.submit(PARENT_PROMPT);
    await session.idle();
  });
  const sent = feed.sent;
  await ui.unmount();
  feed.stop();
  await session.close();
  const answer = session.view.entries.findLast((entry) => entry.kind === 'assistant');
  return {
    text: answer?.text,
    ...sample,
    draws: sent,
    bytes: terminal.stdout.bytes,
    writes: terminal.stdout.writes,
  };
}

/** Times `work` (wall, CPU, how long the event loop was held up). */
async function timed(work) {
  globalThis.gc?.();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await work();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  return {
    outcome,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    // How long the event loop was held up: what a slow draw costs the agents' network reads.
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
}

/** One run, checked: the mock saw every request and the parent reported every child. */
async function measured(run, index) {
  await mock('POST', '/reset');
  const { text, ...sample } = await run(index);
  const stats = await mock('GET', '/stats');
  const problem = checkFinalAnswer(text, { results: spec.n });
  if (problem) throw new Error(problem);
  const expected = 2 + spec.n * spec.k;
  if (stats.requests !== expected) {
    throw new Error(`the mock saw ${stats.requests} model requests, expected ${expected}`);
  }
  return sample;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  await mock('POST', '/config', { n: spec.n, k: spec.k, latencyMs: spec.latencyMs, chunks: 4 });
  // Warm-up: both paths once, so module loading and JIT are out of the timings.
  await measured(printRun, 0);
  await measured(uiRun, 0);
  const print = [];
  const ui = [];
  // Interleaved, so drift of the machine falls on both alike.
  for (let index = 1; index <= spec.iterations; index++) {
    print.push(await measured(printRun, index));
    ui.push(await measured(uiRun, index));
  }
  const printWallMs = median(print.map((sample) => sample.wallMs));
  const uiWallMs = median(ui.map((sample) => sample.wallMs));
  const printCpuMs = median(print.map((sample) => sample.cpuMs));
  const uiCpuMs = median(ui.map((sample) => sample.cpuMs));
  process.stdout.write(
    `RESULT ${JSON.stringify({
      ok: true,
      samples: [
        {
          printWallMs,
          uiWallMs,
          printCpuMs,
          uiCpuMs,
          throughputRatio: printWallMs / uiWallMs,
          uiCpuShare: Math.max(0, uiCpuMs - printCpuMs) / uiWallMs,
          drawsPerSecond: median(ui.map((sample) => (sample.draws * 1000) / sample.wallMs)),
          kibPerSecond: median(ui.map((sample) => sample.bytes / 1.024 / sample.wallMs)),
          print,
          ui,
        },
      ],
    })}\n`,
  );
  process.exitCode = 0;
} catch (error) {
  process.stdout.write(
    `RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}\n`,
  );
  process.exitCode = 2;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
