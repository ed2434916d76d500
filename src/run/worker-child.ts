// A worker's child planned and run, whatever engine journals it: its runtime from the run's
// defaults (run-defaults.ts, as query() plans), derived from its spec as a local child from its
// parent (subagent-context.ts) with the worker's tools, keys and files, it runs agentLoop() with
// the engine's runner, cancel signal and inbox (remote/subagent-workflow.ts, which is given it).

import { statSync } from 'node:fs';
import { ChildRun } from '../agents/child-run.js';
import { failedRemote } from '../agents/remote-ending.js';
import { SpawnTools } from '../agents/spawn-tools.js';
import { createSubagentContext, type ParentView } from '../agents/subagent-context.js';
import { SubagentRuntime } from '../agents/subagent-runtime.js';
import { Budget } from '../core/budget.js';
import type { CommandSandbox } from '../core/command-sandbox.js';
import { messageOf } from '../core/error-message.js';
import type { RunResult } from '../core/events.js';
import { runKnobs } from '../core/run-knobs.js';
import { resolveAgentDefinitions } from '../definitions/load-agent-definitions.js';
import { agentLoop } from '../loop/agent-loop.js';
import { resolveModel } from '../model/resolve-model.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { sessionDate } from '../prompt/environment-prompt.js';
import type { CheckedChildSpec } from '../remote/child-spec-schema.js';
import type { RemoteChildRun } from '../remote/remote-child-run.js';
import {
  finishWorkerWorktree,
  openWorkerWorktree,
  type SideStep,
  stepsInWorktree,
} from '../remote/worker-worktree.js';
import { createCommandSandbox } from '../sandbox/command-sandbox.js';
import { unconfinedWarning } from '../sandbox/run-sandbox.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { FileStateCache } from '../tools/file-state.js';
import { runtimeDefaults } from './run-defaults.js';

let sandbox: CommandSandbox | undefined;

/** The worker's one command sandbox, which says once on stderr when it cannot confine anything. */
function workerSandbox(): CommandSandbox {
  sandbox ??= createCommandSandbox({
    onUnconfined: (why) =>
      process.stderr.write(`warren worker: warning: ${unconfinedWarning(why)}\n`),
  });
  return sandbox;
}

/**
 * Runs the child to its end, in a worktree of its own on this worker when its spec asks for one.
 * Never throws for a child that could not start: it ends `failed`.
 */
export async function runRemoteChild(run: RemoteChildRun): Promise<RunResult> {
  const { spec } = run;
  const side: SideStep = run.side ?? (async (_name, work) => work());
  try {
    await side('workspace', () => {
      if (!statSync(spec.cwd, { throwIfNoEntry: false })?.isDirectory()) {
        throw new Error(
          `its working directory ${spec.cwd} does not exist on this worker (tools run on the worker's machine: give workers the same checkout at the same path, or a shared filesystem)`,
        );
      }
      return spec.cwd;
    });
  } catch (error) {
    return notStarted(spec, error);
  }
  const child = workerChild(run);
  if (spec.worktree) {
    const opened = await openWorkerWorktree(spec, side);
    if (!opened.ok) return failedRemote(spec, opened.message);
    child.workspace = opened.workspace;
  }
  const ended = await runInPlace(run, child);
  // However it ended, its worktree is finished, and the note goes to its parent with its result.
  return child.workspace ? finishWorkerWorktree(child, side, ended) : ended;
}

/** The child as a ChildRun of the worker's own runtime. */
function workerChild(run: RemoteChildRun): ChildRun {
  const { spec } = run;
  const runtime = workerRuntime(spec, run);
  const ref = { agentId: spec.agentId, parentId: spec.parentId, depth: spec.depth };
  const owner = { agentId: spec.parentId, parentId: null, depth: spec.depth - 1 };
  return new ChildRun(runtime, ref, owner, {
    agentType: spec.definition.name,
    description: spec.description,
  });
}

/**
 * The worker's runtime for one child, planned as a run is: the spec's definitions and depth,
 * the date its first start read (so a replay sends the same prompt), the worker's executor for
 * its own children, and every other knob and port at the run's defaults.
 */
export function workerRuntime(
  spec: CheckedChildSpec,
  run: Pick<RemoteChildRun, 'startedAt' | 'remote'>,
): SubagentRuntime {
  const definitions = resolveAgentDefinitions({});
  for (const definition of [...spec.definitions, spec.definition]) {
    definitions.set(definition.name, definition);
  }
  return new SubagentRuntime({
    ...runKnobs({ maxDepth: spec.maxDepth }),
    ...runtimeDefaults(spec.cwd, { sessionDate: sessionDate(new Date(run.startedAt)) }),
    definitions,
    remote: run.remote,
  });
}

/**
 * The child's loop, in its spec's cwd or in its own worktree: the loop itself, with the
 * engine's steps, not the local drive (no stall watchdog, no agent directory on a worker).
 */
async function runInPlace(run: RemoteChildRun, child: ChildRun): Promise<RunResult> {
  const { spec } = run;
  try {
    await childStart(run, child);
  } catch (error) {
    return notStarted(spec, error);
  }
  let result: RunResult | undefined;
  for await (const event of agentLoop({ prompt: child.prompt, options: child.options })) {
    if (event.type === 'result' && event.agentId === spec.agentId) result = event;
  }
  if (!result) return failedRemote(spec, 'The agent ended without a result.');
  const { type: _type, ...ended } = result as RunResult & { type?: string };
  return ended;
}

function notStarted(spec: CheckedChildSpec, error: unknown): RunResult {
  const why = messageOf(error);
  return failedRemote(
    spec,
    `The ${spec.definition.name} agent could not start on the worker: ${why}`,
  );
}

async function childStart(run: RemoteChildRun, child: ChildRun): Promise<void> {
  const { spec } = run;
  const { runtime, workspace } = child;
  const spawn = new SpawnTools(runtime);
  // The parent's list as the spec names it, from this machine's tools: a child never gets a
  // tool its parent lacked, and its Agent tool only while its depth allows.
  const granted = new Set(spec.tools);
  const parentTools = builtinTools().filter((tool) => granted.has(tool.name));
  if (granted.has('Agent')) {
    parentTools.push(
      ...spawn.spawnTools({
        depth: spec.depth - 1,
        definition: undefined,
        parentTools: 'root',
        mayUseAgent: true,
      }),
    );
  }
  const model = await resolveModel(spec.model.spec, {
    baseUrl: run.modelBaseUrl,
    env: run.env,
    source: `the child's model (${spec.model.spec})`,
  });
  const { deadline, tokens, costUsd, windDownMs, maxTurns } = spec.budget;
  const budget = new Budget({
    timeMs: deadline === undefined ? undefined : Math.max(0, deadline - run.startedAt),
    tokens,
    costUsd,
    windDownMs,
  });
  // The worker's own sandbox: a spec cannot turn it off or open the network.
  const commandSandbox = workerSandbox();
  const permissions = createPermissionPolicy({ ...spec.permissions, sandbox: commandSandbox });
  const parentPath = spec.agentPath.split('/').slice(0, -2).join('/') || 'main';
  const parent: ParentView = {
    run: {
      agentPath: parentPath,
      inherited: {
        ...spec.calls,
        baseUrl: run.modelBaseUrl,
        onEvent: run.onEvent,
        commandSandbox,
      },
      cancelSignal: run.signal,
      model,
      tools: parentTools,
      shownTools: parentTools,
      budget,
      permissions,
      messages: [],
      turnsLeft: maxTurns,
    },
    cwd: spec.cwd,
    allowedDirs: [spec.cwd],
    fileState: new FileStateCache(),
    toolCallId: 'remote',
    agent: {
      agentId: spec.parentId,
      parentId: null,
      depth: spec.depth - 1,
      agentType: 'remote-parent',
      path: parentPath,
    },
  };
  const start = await createSubagentContext(
    { runtime, toolsFor: (params) => spawn.toolsFor(params) },
    {
      definition: spec.definition,
      // The spec's model is the child's, already chosen by its parent: not the definition's again.
      model: 'inherit',
      prompt: spec.prompt,
      description: spec.description,
      forkContext: false,
      agentId: spec.agentId,
      agentPath: spec.agentPath,
    },
    parent,
    child,
  );
  child.derived(start);
  const { options } = child;
  // Hooks run where the session is, not here: a remote child has none (docs/remote.md).
  options.hooks = undefined;
  options.steps = workspace ? stepsInWorktree(run.steps, workspace) : run.steps;
  options.inbox = run.inbox;
  options.signal = run.signal;
}
