// What the benchmark runs: the scenarios with their workloads and repetitions. The targets the
// report checks them against are in report.mjs, next to the rows they apply to.

const times = (count, cfg) => Array.from({ length: count }, () => ({ ...cfg }));

/**
 * Scenarios by name. Fan-out-style ones (`job: 'fanout'`) run in one worker process per
 * repetition and adapter; `explore` runs only for adapters whose meta says `explores`; `cli`
 * spawns warren's command line from the driver; `background` (warren only) times spawning
 * background children and weighs 1000 of them in flight (lib/background-worker.mjs).
 */
export function scenarios({ quick }) {
  return {
    turn: {
      title: 'per-turn overhead',
      job: 'fanout',
      n: 1,
      k: 50,
      latencyMs: 0,
      modes: ['json', 'sse'],
      warmup: times(quick ? 4 : 10, { n: 1, k: 50, latencyMs: 0 }),
      iterations: quick ? 3 : 5,
      timeoutMs: 120_000,
    },
    fanout: {
      title: 'fan-out',
      job: 'fanout',
      n: 100,
      k: 3,
      latencyMs: 50,
      modes: ['json'],
      warmup: times(2, { n: 100, k: 3, latencyMs: 0 }),
      iterations: 1,
      timeoutMs: 120_000,
    },
    scale: {
      title: 'scale',
      job: 'fanout',
      n: 1000,
      k: 2,
      latencyMs: 200,
      modes: ['json'],
      warmup: times(2, { n: 100, k: 2, latencyMs: 0 }),
      iterations: 1,
      sampleRss: true,
      timeoutMs: 240_000,
    },
    context: {
      title: 'context savings',
      job: 'explore',
      modes: ['json'],
      timeoutMs: 120_000,
    },
    cli: {
      title: 'CLI start',
      job: 'cli',
      modes: ['json'],
      runs: quick ? 5 : 11,
    },
    background: {
      title: 'background children',
      job: 'background',
      modes: ['json'],
      spawns: quick ? 50 : 200,
      children: 1000,
      timeoutMs: 120_000,
    },
    cache: {
      title: 'prompt cache',
      job: 'cache',
      modes: ['json'],
      // A parent, `n` siblings of one definition and one forked child, on the Anthropic wire.
      n: 10,
      latencyMs: 100,
    },
    tui: {
      title: 'terminal UI',
      job: 'tui',
      modes: ['sse'],
      // 100 children at once, streamed, drawn by the terminal UI; against print mode's loop.
      n: 100,
      k: 3,
      latencyMs: 200,
      iterations: quick ? 3 : 5,
    },
    mcp: {
      title: 'MCP server start',
      job: 'mcp',
      modes: ['json'],
      // Timed starts of one server per process; then `children` agents each with its own.
      starts: quick ? 3 : 5,
      children: 20,
    },
    worktree: {
      title: 'worktree create+remove',
      job: 'worktree',
      modes: ['json'],
      // A repository of `files` files; `cycles` timed create+finish rounds per process.
      files: 1000,
      cycles: quick ? 5 : 15,
    },
    sandbox: {
      title: 'command sandbox per Bash call',
      job: 'sandbox',
      modes: ['json'],
      // `calls` Bash calls of `true` in bubblewrap, interleaved with as many unconfined ones.
      calls: quick ? 20 : 40,
    },
    protocols: {
      title: 'one call over each protocol',
      job: 'protocols',
      modes: ['json'],
      // One agent, one scripted turn: `calls` calls one after another, each way (report only).
      calls: quick ? 10 : 30,
    },
    workflow: {
      title: 'workflow overhead',
      job: 'workflow',
      modes: ['json'],
      // A 1,000-item workflow at concurrency 100 whose items answer at once (what the workflow
      // adds: sandbox, journal, gate), then its resume with 990 items done.
      items: 1000,
      concurrency: 100,
      // Then a real Workflow call of `cacheItems` items of one definition on the mock's
      // Anthropic cache: the share of their input read from the cache after the first item.
      cacheItems: 10,
      latencyMs: 100,
    },
    remote: {
      title: 'remote children on Restate',
      job: 'remote',
      modes: ['json'],
      // A restate-server and one worker process: `spawns` one-call children one at a time,
      // `stepReps` children of 2K-1 steps, then `children` one-call children at once; each
      // against the same child run in-process with no journal.
      spawns: quick ? 10 : 30,
      stepReps: quick ? 3 : 5,
      k: 21,
      children: 1000,
    },
  };
}

/** The critical path of a fan-out run with no overhead at all: parent, K child turns, parent. */
export function idealMs(scenario) {
  return scenario.latencyMs * (2 + scenario.k);
}
