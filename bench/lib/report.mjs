// Turns raw worker samples into medians per cell, and the cells into the table the driver
// prints: one row per metric, one column per adapter, each adapter's ratio to the raw-fetch
// baseline of the same run, and whether it meets its target.
import { idealMs } from './scenarios.mjs';

export const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const min = (values) => {
  const finite = values.filter(Number.isFinite);
  return finite.length > 0 ? Math.min(...finite) : null;
};

/** Medians (and the minima that matter) of one cell's samples. */
export function summariseCell(scenario, samples) {
  const medianOf = (pick) => median(samples.map(pick));
  if (scenario.job === 'explore') {
    return {
      samples: samples.length,
      contextRatio: medianOf((s) => s.contextRatio),
      singleParentTokens: medianOf((s) => s.single.parentTokens),
      delegatedParentTokens: medianOf((s) => s.delegated.parentTokens),
      singleTotalTokens: medianOf((s) => s.single.totalMessageTokens),
      delegatedTotalTokens: medianOf((s) => s.delegated.totalMessageTokens),
      singleWallMs: medianOf((s) => s.single.wallMs),
      delegatedWallMs: medianOf((s) => s.delegated.wallMs),
    };
  }
  if (scenario.job === 'tui') {
    return {
      samples: samples.length,
      throughputRatio: medianOf((s) => s.throughputRatio),
      throughputRatioMin: min(samples.map((s) => s.throughputRatio)),
      uiCpuShare: medianOf((s) => s.uiCpuShare),
      printWallMs: medianOf((s) => s.printWallMs),
      uiWallMs: medianOf((s) => s.uiWallMs),
      drawsPerSecond: medianOf((s) => s.drawsPerSecond),
      kibPerSecond: medianOf((s) => s.kibPerSecond),
    };
  }
  if (scenario.job === 'background') {
    return {
      samples: samples.length,
      spawnToRunningMs: medianOf((s) => s.spawnToRunningMedianMs),
      spawnToRunningP90Ms: medianOf((s) => s.spawnToRunningP90Ms),
      rssPerChildKiB: medianOf((s) => s.rssPerChildKiB),
      heapPerChildKiB: medianOf((s) => s.heapPerChildKiB),
    };
  }
  if (scenario.job === 'mcp') {
    return {
      samples: samples.length,
      startMs: median(samples.flatMap((s) => s.startMs)),
      peakServersAliveMin: min(samples.map((s) => s.peakServersAlive)),
      fanoutWallMs: medianOf((s) => s.fanoutWallMs),
    };
  }
  if (scenario.job === 'cache') {
    const of = (variant, key) => medianOf((s) => s[variant][key]);
    return {
      samples: samples.length,
      siblingsAfterFirstShare: of('warren', 'siblingsAfterFirstShare'),
      forkShare: of('warren', 'forkShare'),
      childrenShare: of('warren', 'childrenShare'),
      runShare: of('warren', 'runShare'),
      childrenCost: of('warren', 'childrenCost'),
      ccSiblingsAfterFirstShare: of('claudeCode', 'siblingsAfterFirstShare'),
      ccForkShare: of('claudeCode', 'forkShare'),
      ccChildrenShare: of('claudeCode', 'childrenShare'),
      ccChildrenCost: of('claudeCode', 'childrenCost'),
      boundChildrenShare: of('bound', 'childrenShare'),
      childrenInputTokens: of('warren', 'childrenInputTokens'),
      wallMs: medianOf((s) => s.wallMs),
      siblingStartSpreadMs: medianOf((s) => s.siblingStartSpreadMs),
    };
  }
  if (scenario.job === 'remote') {
    return {
      samples: samples.length,
      spawnLocalMs: medianOf((s) => s.spawnLocalMs),
      spawnRemoteMs: medianOf((s) => s.spawnRemoteMs),
      perStepMs: medianOf((s) => s.perStepMs),
      stepperLocalMs: medianOf((s) => s.stepperLocalMs),
      stepperRemoteMs: medianOf((s) => s.stepperRemoteMs),
      remotePerSecond: medianOf((s) => s.remotePerSecond),
      localPerSecond: medianOf((s) => s.localPerSecond),
    };
  }
  if (scenario.job === 'protocols') {
    return {
      samples: samples.length,
      inProcessMs: medianOf((s) => s.inProcessMs),
      mcpCallMs: medianOf((s) => s.mcpCallMs),
      a2aCallMs: medianOf((s) => s.a2aCallMs),
      remoteChildMs: medianOf((s) => s.remoteChildMs),
    };
  }
  if (scenario.job === 'workflow') {
    return {
      samples: samples.length,
      cpuMsPerItem: medianOf((s) => s.cpuMsPerItem),
      resumeFirstNewMs: medianOf((s) => s.resumeFirstNewMs),
      itemsAfterFirstCacheShare: medianOf((s) => s.itemsAfterFirstCacheShare),
      wallMs: medianOf((s) => s.wallMs),
    };
  }
  if (scenario.job === 'sandbox') {
    return {
      samples: samples.length,
      sandboxedMs: medianOf((s) => s.sandboxedMs),
      plainMs: medianOf((s) => s.plainMs),
      addedMs: medianOf((s) => s.addedMs),
    };
  }
  if (scenario.job === 'worktree') {
    return {
      samples: samples.length,
      cycleMs: medianOf((s) => s.cycleMs),
      createMs: medianOf((s) => s.createMs),
      finishMs: medianOf((s) => s.finishMs),
      gitAddMs: medianOf((s) => s.gitAddMs),
      gitAddRemoveMs: medianOf((s) => s.gitAddRemoveMs),
    };
  }
  if (scenario.job === 'cli') {
    return {
      samples: samples.length,
      modelsGetMs: medianOf((s) => s.modelsGetMs),
      firstRequestMs: medianOf((s) => s.firstRequestMs),
      firstRequestMinMs: min(samples.map((s) => s.firstRequestMs)),
      firstRequestCpuMs: medianOf((s) => s.firstRequestCpuMs),
      exitMs: medianOf((s) => s.exitMs),
      installedFirstRequestMs: medianOf((s) => s.installed?.firstRequestMs ?? Number.NaN),
      installedFirstRequestCpuMs: medianOf((s) => s.installed?.firstRequestCpuMs ?? Number.NaN),
      installedExitMs: medianOf((s) => s.installed?.exitMs ?? Number.NaN),
    };
  }
  const ideal = idealMs(scenario);
  return {
    samples: samples.length,
    wallMs: medianOf((s) => s.wallMs),
    usPerRequest: medianOf((s) => (s.wallMs * 1000) / s.requests),
    usPerRequestMin: min(samples.map((s) => (s.wallMs * 1000) / s.requests)),
    cpuUsPerRequest: medianOf((s) => (s.cpuMs * 1000) / s.requests),
    ratioToIdeal: ideal > 0 ? medianOf((s) => s.wallMs / ideal) : null,
    maxInFlight: medianOf((s) => s.maxInFlight),
    connections: medianOf((s) => s.connections),
    maxInFlightMin: min(samples.map((s) => s.maxInFlight)),
    childLaunchSpreadMs: medianOf((s) => s.childLaunchSpreadMs),
    peakRssMiB: medianOf((s) => s.peakRssMiB),
    peakHeapMiB: medianOf((s) => s.peakHeapMiB ?? Number.NaN),
    rssGrowthMiB: medianOf((s) =>
      s.peakRssMiB === null ? Number.NaN : s.peakRssMiB - s.rssBeforeMiB,
    ),
    serverCpuUsPerRequest: medianOf((s) => (s.serverCpuMs * 1000) / s.requests),
  };
}

/**
 * The rows of the table. `target`: `vsBaseline` (value ÷ baseline's at most this), `atMost` /
 * `atLeast` (the value itself), `equals` (the value must be exactly this, e.g. all N in flight).
 */
function rows(sc) {
  const fixed = (digits) => (v) => v.toFixed(digits);
  const percent = (v) => `${(100 * v).toFixed(1)}%`;
  const turn = `${sc.turn.n}×${sc.turn.k} @${sc.turn.latencyMs} ms`;
  const fan = `${sc.fanout.n}×${sc.fanout.k} @${sc.fanout.latencyMs} ms`;
  const scale = `${sc.scale.n}×${sc.scale.k} @${sc.scale.latencyMs} ms`;
  return [
    {
      cell: 'turn.json',
      label: `turn JSON ${turn}: wall µs/request`,
      pick: 'usPerRequest',
      format: fixed(0),
      target: { vsBaseline: 1.3 },
    },
    {
      cell: 'turn.json',
      label: 'turn JSON: CPU µs/request',
      pick: 'cpuUsPerRequest',
      format: fixed(0),
    },
    {
      cell: 'turn.sse',
      label: `turn SSE ${turn}: wall µs/request`,
      pick: 'usPerRequest',
      format: fixed(0),
      target: { vsBaseline: 1.5 },
    },
    {
      cell: 'turn.sse',
      label: 'turn SSE: CPU µs/request',
      pick: 'cpuUsPerRequest',
      format: fixed(0),
    },
    {
      cell: 'turn.sse',
      label: `turn SSE: connections opened for ${2 + sc.turn.n * sc.turn.k} requests`,
      pick: 'connections',
      format: fixed(0),
    },
    { cell: 'fanout.json', label: `fan-out ${fan}: wall ms`, pick: 'wallMs', format: fixed(0) },
    {
      cell: 'fanout.json',
      label: `fan-out: wall ÷ ideal ${idealMs(sc.fanout)} ms`,
      pick: 'ratioToIdeal',
      format: fixed(2),
      target: { vsBaseline: 1.1 },
    },
    {
      cell: 'fanout.json',
      label: 'fan-out: max requests in flight (min)',
      pick: 'maxInFlightMin',
      format: fixed(0),
      target: { equals: sc.fanout.n },
    },
    {
      cell: 'fanout.json',
      label: 'fan-out: child launch spread ms',
      pick: 'childLaunchSpreadMs',
      format: fixed(1),
    },
    {
      cell: 'fanout.json',
      label: 'fan-out: CPU µs/request',
      pick: 'cpuUsPerRequest',
      format: fixed(0),
    },
    { cell: 'scale.json', label: `scale ${scale}: wall ms`, pick: 'wallMs', format: fixed(0) },
    {
      cell: 'scale.json',
      label: `scale: wall ÷ ideal ${idealMs(sc.scale)} ms`,
      pick: 'ratioToIdeal',
      format: fixed(2),
      target: { vsBaseline: 1.2 },
    },
    {
      cell: 'scale.json',
      label: 'scale: max requests in flight (min)',
      pick: 'maxInFlightMin',
      format: fixed(0),
      target: { equals: sc.scale.n },
    },
    {
      cell: 'scale.json',
      label: 'scale: peak RSS MiB',
      pick: 'peakRssMiB',
      format: fixed(0),
      target: { vsBaseline: 1.3 },
    },
    { cell: 'scale.json', label: 'scale: RSS growth MiB', pick: 'rssGrowthMiB', format: fixed(0) },
    { cell: 'scale.json', label: 'scale: peak JS heap MiB', pick: 'peakHeapMiB', format: fixed(0) },
    {
      cell: 'scale.json',
      label: 'scale: CPU µs/request',
      pick: 'cpuUsPerRequest',
      format: fixed(0),
    },
    {
      cell: 'context.json',
      label: 'context: parent tokens, delegated ÷ single',
      pick: 'contextRatio',
      format: percent,
      target: { atMost: 0.1, shown: '10%' },
    },
    {
      cell: 'context.json',
      label: 'context: parent tokens, single agent',
      pick: 'singleParentTokens',
      format: fixed(0),
    },
    {
      cell: 'context.json',
      label: 'context: parent tokens, delegating',
      pick: 'delegatedParentTokens',
      format: fixed(0),
    },
    {
      cell: 'context.json',
      label: 'context: all requests tokens, single',
      pick: 'singleTotalTokens',
      format: fixed(0),
    },
    {
      cell: 'context.json',
      label: 'context: all requests tokens, delegating',
      pick: 'delegatedTotalTokens',
      format: fixed(0),
    },
    {
      cell: 'cli.json',
      label: 'CLI: spawn → GET /v1/models ms',
      pick: 'modelsGetMs',
      format: fixed(0),
    },
    {
      cell: 'cli.json',
      label: 'CLI: spawn → first model request ms',
      pick: 'firstRequestMs',
      format: fixed(0),
      target: { atMost: 150, shown: '150 ms' },
    },
    {
      cell: 'cli.json',
      label: 'CLI: CPU ms to the first model request',
      pick: 'firstRequestCpuMs',
      format: fixed(0),
    },
    { cell: 'cli.json', label: 'CLI: spawn → exit ms', pick: 'exitMs', format: fixed(0) },
    {
      cell: 'cli.json',
      label: 'CLI installed: spawn → first model request ms',
      pick: 'installedFirstRequestMs',
      format: fixed(0),
      target: { atMost: 150, shown: '150 ms' },
    },
    {
      cell: 'cli.json',
      label: 'CLI installed: CPU ms to the first model request',
      pick: 'installedFirstRequestCpuMs',
      format: fixed(0),
    },
    {
      cell: 'cli.json',
      label: 'CLI installed: spawn → exit ms',
      pick: 'installedExitMs',
      format: fixed(0),
    },
    {
      cell: 'background.json',
      label: 'background: Agent call → child running, median ms',
      pick: 'spawnToRunningMs',
      format: fixed(2),
      target: { atMost: 5, shown: '5 ms' },
    },
    {
      cell: 'background.json',
      label: 'background: Agent call → child running, p90 ms',
      pick: 'spawnToRunningP90Ms',
      format: fixed(2),
    },
    {
      cell: 'background.json',
      label: `background: RSS per child, ${sc.background.children} in flight, KiB`,
      pick: 'rssPerChildKiB',
      format: fixed(1),
      target: { atMost: 60, shown: '60 KiB' },
    },
    {
      cell: 'background.json',
      label: 'background: JS heap per child in flight, KiB',
      pick: 'heapPerChildKiB',
      format: fixed(1),
    },
    {
      cell: 'cache.json',
      label: `cache ${sc.cache.n} siblings + a fork: siblings after the first, input read from cache`,
      pick: 'siblingsAfterFirstShare',
      format: percent,
      target: { atLeast: 0.8, shown: '80%' },
    },
    {
      cell: 'cache.json',
      label: 'cache: forked child, input read from cache',
      pick: 'forkShare',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: 'cache: all children, input read from cache',
      pick: 'childrenShare',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: 'cache: all children, most any breakpoints could read',
      pick: 'boundChildrenShare',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: 'cache: whole run, input read from cache',
      pick: 'runShare',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: "cache: children's input cost ÷ caching off",
      pick: 'childrenCost',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: 'cache, Claude Code model: siblings after the first',
      pick: 'ccSiblingsAfterFirstShare',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: 'cache, Claude Code model: forked child',
      pick: 'ccForkShare',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: "cache, Claude Code model: children's input cost ÷ caching off",
      pick: 'ccChildrenCost',
      format: percent,
    },
    {
      cell: 'cache.json',
      label: 'cache: siblings held for the first, first-request spread ms',
      pick: 'siblingStartSpreadMs',
      format: fixed(0),
    },
    {
      cell: 'tui.sse',
      label: `terminal UI ${sc.tui.n}×${sc.tui.k} @${sc.tui.latencyMs} ms: print mode wall ms`,
      pick: 'printWallMs',
      format: fixed(0),
      noRatio: true,
    },
    {
      cell: 'tui.sse',
      label: 'terminal UI: wall ms with the UI drawing',
      pick: 'uiWallMs',
      format: fixed(0),
      noRatio: true,
    },
    {
      cell: 'tui.sse',
      label: "terminal UI: agents' throughput, UI on ÷ print mode",
      pick: 'throughputRatio',
      format: percent,
      target: { atLeast: 0.95, shown: '95%' },
      noRatio: true,
    },
    {
      cell: 'tui.sse',
      label: 'terminal UI: UI CPU, share of one core',
      pick: 'uiCpuShare',
      format: percent,
      target: { atMost: 0.1, shown: '10%' },
      noRatio: true,
    },
    {
      cell: 'tui.sse',
      label: 'terminal UI: draws per second',
      pick: 'drawsPerSecond',
      format: fixed(1),
      noRatio: true,
    },
    {
      cell: 'tui.sse',
      label: 'terminal UI: KiB per second to the terminal',
      pick: 'kibPerSecond',
      format: fixed(1),
      noRatio: true,
    },
    {
      cell: 'mcp.json',
      label: 'MCP: per-agent stdio server start → tools/list ms',
      pick: 'startMs',
      format: fixed(0),
      target: { atMost: 300, shown: '300 ms' },
    },
    {
      cell: 'mcp.json',
      label: `MCP: ${sc.mcp.children} children, own servers: most alive at once (min)`,
      pick: 'peakServersAliveMin',
      format: fixed(0),
      target: { equals: sc.mcp.children },
    },
    {
      cell: 'mcp.json',
      label: `MCP: ${sc.mcp.children} children, own servers: wall ms`,
      pick: 'fanoutWallMs',
      format: fixed(0),
    },
    {
      cell: 'worktree.json',
      label: `worktree: create + remove (${sc.worktree.files} files) ms`,
      pick: 'cycleMs',
      format: fixed(0),
      target: { atMost: 150, shown: '150 ms' },
    },
    { cell: 'worktree.json', label: 'worktree: create ms', pick: 'createMs', format: fixed(0) },
    {
      cell: 'worktree.json',
      label: 'worktree: finish (unchanged) ms',
      pick: 'finishMs',
      format: fixed(0),
    },
    {
      cell: 'worktree.json',
      label: 'worktree: git worktree add alone ms',
      pick: 'gitAddMs',
      format: fixed(0),
    },
    {
      cell: 'worktree.json',
      label: 'worktree: git worktree add + remove ms',
      pick: 'gitAddRemoveMs',
      format: fixed(0),
    },
    {
      cell: 'workflow.json',
      label: `workflow: CPU per item (${sc.workflow.items} items, ${sc.workflow.concurrency} at once) ms`,
      pick: 'cpuMsPerItem',
      format: fixed(3),
      target: { atMost: 2, shown: '2 ms' },
    },
    {
      cell: 'workflow.json',
      label: `workflow: resume with ${sc.workflow.items - sc.workflow.items / 100} done, first new item ms`,
      pick: 'resumeFirstNewMs',
      format: fixed(0),
      target: { atMost: 1000, shown: '1 s' },
    },
    {
      cell: 'workflow.json',
      label: `workflow: input read from the prompt cache, items after the first (${sc.workflow.cacheItems} items)`,
      pick: 'itemsAfterFirstCacheShare',
      format: percent,
      target: { atLeast: 0.8, shown: '80%' },
    },
    {
      cell: 'sandbox.json',
      label: 'sandbox: added per Bash call ms',
      pick: 'addedMs',
      format: fixed(1),
      target: { atMost: 15, shown: '15 ms' },
    },
    {
      cell: 'sandbox.json',
      label: 'sandbox: Bash call (true) in the sandbox ms',
      pick: 'sandboxedMs',
      format: fixed(1),
    },
    {
      cell: 'sandbox.json',
      label: 'sandbox: Bash call (true) unconfined ms',
      pick: 'plainMs',
      format: fixed(1),
    },
    {
      cell: 'remote.json',
      label: 'remote: one-call child spawn → result ms',
      pick: 'spawnRemoteMs',
      format: fixed(1),
    },
    {
      cell: 'remote.json',
      label: 'remote: the same child in-process ms',
      pick: 'spawnLocalMs',
      format: fixed(1),
    },
    {
      cell: 'remote.json',
      label: `remote: overhead per journaled step (${2 * sc.remote.k - 1}-step child) ms`,
      pick: 'perStepMs',
      format: fixed(2),
    },
    {
      cell: 'remote.json',
      label: `remote: ${sc.remote.children} one-call children at once, children/s`,
      pick: 'remotePerSecond',
      format: fixed(0),
    },
    {
      cell: 'remote.json',
      label: `remote: ${sc.remote.children} in-process children at once, children/s`,
      pick: 'localPerSecond',
      format: fixed(0),
    },
    ...[
      ['inProcessMs', 'in-process'],
      ['mcpCallMs', 'warren mcp serve (stdio)'],
      ['a2aCallMs', 'warren a2a serve (streamed)'],
      ['remoteChildMs', 'a kind: remote child (parent turns included)'],
    ].map(([pick, way]) => ({
      cell: 'protocols.json',
      label: `protocols: one call ${way} ms`,
      pick,
      format: fixed(1),
    })),
    {
      cell: 'import',
      label: 'adapter import ms',
      pick: 'importMs',
      format: fixed(0),
      noRatio: true,
    },
    {
      cell: 'import',
      label: 'adapter import: CPU ms',
      pick: 'importCpuMs',
      format: fixed(0),
      noRatio: true,
    },
  ];
}

/** `a ÷ b` of one row, or '-' when either is missing or b is zero. */
function ratioOf(summary, row, a, b) {
  const value = (name) => {
    const cell = summary[name]?.[row.cell];
    return cell && !cell.failed ? cell[row.pick] : null;
  };
  const [top, bottom] = [value(a), value(b)];
  if (typeof top !== 'number' || typeof bottom !== 'number' || bottom === 0) return '-';
  return `${(top / bottom).toFixed(2)}×`;
}

function describeTarget(target) {
  if (target.vsBaseline !== undefined) return `≤ ${target.vsBaseline}× baseline`;
  if (target.atMost !== undefined) return `≤ ${target.shown}`;
  if (target.atLeast !== undefined) return `≥ ${target.shown}`;
  return `= ${target.equals}`;
}

/**
 * Builds the table. `summary[adapter][cell]` is a summarised cell, `{ failed }` or missing;
 * `judged` names the adapters the targets apply to. Returns the markdown text and every
 * target's verdict.
 */
export function buildTable({ sc, adapters, judged, summary, footnotes, against }) {
  const compared = adapters.filter((name) => name !== 'baseline');
  const header = ['metric', ...adapters];
  for (const name of compared) header.push(`${name} ÷ baseline`);
  // --against: this checkout's warren ÷ the other revision's, on every row both measured.
  if (against) header.push(`${against.of} ÷ ${against.name}`);
  header.push('target', ...judged.map((name) => `${name} verdict`));

  const verdicts = [];
  const lines = [];
  for (const row of rows(sc)) {
    const cells = adapters.map((name) => summary[name]?.[row.cell]);
    if (cells.every((cell) => cell === undefined)) continue;
    const shown = (cell, name) => {
      if (cell === undefined) return 'n/a';
      if (cell.failed) return 'FAIL';
      const value = cell[row.pick];
      if (value === null || value === undefined) return '-';
      return (
        row.format(value) + (footnotes[name]?.cells.includes(row.cell) ? footnotes[name].mark : '')
      );
    };
    const line = [row.label, ...cells.map((cell, i) => shown(cell, adapters[i]))];
    const base = summary.baseline?.[row.cell];
    const baseValue = base && !base.failed ? base[row.pick] : null;
    const measured = {};
    for (const name of compared) {
      const cell = summary[name]?.[row.cell];
      const value = cell && !cell.failed ? cell[row.pick] : null;
      const comparable = !row.noRatio && value !== null && value !== undefined && baseValue;
      measured[name] = { cell, value, ratio: comparable ? value / baseValue : null };
      line.push(measured[name].ratio === null ? '-' : `${measured[name].ratio.toFixed(2)}×`);
    }
    if (against) line.push(ratioOf(summary, row, against.of, against.name));
    line.push(row.target ? describeTarget(row.target) : '');
    for (const name of judged) {
      if (!row.target) {
        line.push('');
        continue;
      }
      const { value, ratio } = measured[name];
      const verdict = judge(row.target, measured[name]);
      line.push(verdict);
      verdicts.push({
        adapter: name,
        metric: row.label,
        target: describeTarget(row.target),
        value,
        ratio,
        verdict,
      });
    }
    lines.push(line);
  }

  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const format = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  const notes = Object.values(footnotes).map((note) => `${note.mark} ${note.text}`);
  return {
    text: [
      format(header),
      rule,
      ...lines.map(format),
      ...(notes.length ? ['', ...notes] : []),
    ].join('\n'),
    verdicts,
  };
}

function judge(target, { cell, value, ratio }) {
  if (cell === undefined) return 'n/a';
  if (cell.failed) return 'FAIL';
  if (target.vsBaseline !== undefined) {
    if (ratio === null) return 'n/a';
    return ratio <= target.vsBaseline ? 'met' : 'MISSED';
  }
  if (value === null || value === undefined) return 'n/a';
  if (target.atMost !== undefined) return value <= target.atMost ? 'met' : 'MISSED';
  if (target.atLeast !== undefined) return value >= target.atLeast ? 'met' : 'MISSED';
  return value === target.equals ? 'met' : 'MISSED';
}
