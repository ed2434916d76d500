// A worker's side of one remote child, whatever engine journals it: derived from its spec as a
// local child from its parent (subagent-context.ts), with the worker's tools, keys and files, it
// runs agentLoop() with the engine's runner, cancel signal and inbox (subagent-workflow.ts).

import { statSync } from 'node:fs';
import { ChildRun } from '../agents/child-run.js';
import { failedRemote } from '../agents/remote-ending.js';
import type { RemotePort } from '../agents/remote-port.js';
import { SpawnTools } from '../agents/spawn-tools.js';
import { createSubagentContext, type ParentView } from '../agents/subagent-context.js';
import { SubagentRuntime } from '../agents/subagent-runtime.js';
import { Budget } from '../core/budget.js';
import type { CommandSandbox } from '../core/command-sandbox.js';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { Inbox } from '../core/inbox.js';
import type { StepRunner } from '../core/step-runner.js';
import { resolveAgentDefinitions } from '../definitions/load-agent-definitions.js';
import { agentLoop } from '../loop/agent-loop.js';
import { resolveModel } from '../model/resolve-model.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { sessionDate } from '../prompt/environment-prompt.js';
import { createCommandSandbox } from '../sandbox/command-sandbox.js';
import { unconfinedWarning } from '../sandbox/run-sandbox.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { FileStateCache } from '../tools/file-state.js';
import type { CheckedChildSpec } from './child-spec-schema.js';
import {
  finishWorkerWorktree,
  openWorkerWorktree,
  type SideStep,
  stepsInWorktree,
} from './worker-worktree.js';

export interface RemoteChildRun {
  spec: CheckedChildSpec;
  /** The engine's runner: every model call and tool call of the child is one of its steps. */
  steps: StepRunner;
  /** Aborts when the engine cancels the child. */
  signal: AbortSignal;
  inbox?: Inbox;
  /**
   * When the child first started (a journaled clock read): its time budget and its prompt's
   * date count from here on every replay, so a replay takes the same decisions.
   */
  startedAt: number;
  /**
   * Runs a side effect of the worker's own (a check of the filesystem, a worktree made) as a
   * journaled step, so a replay takes the path the first run took. Default: runs it directly.
   */
  side?: SideStep;
  /** Where the worker's own children go, when the worker has an executor. */
  remote?: RemotePort;
  /** Where the model's key and endpoint are read: the worker's environment. */
  env?: Record<string, string | undefined>;
  /**
   * Where openai-compatible models send requests: the worker's own `--base-url` (else its
   * WARREN_BASE_URL). Never the spec's: a spec must not choose where the worker's key goes.
   */
  modelBaseUrl?: string;
  onEvent?: (event: AgentEvent) => void;
}

/**
 * Runs the child to its end, in a worktree of its own on this worker when its spec asks for one.
 * Never throws for a child that could not start: it ends `failed`.
 */
let sandbox: CommandSandbox | undefined;

/** The worker's one command sandbox, which says once on stderr when it cannot confine anything. */
function workerSandbox(): CommandSandbox {
  sandbox ??= createCommandSandbox({
    onUnconfined: (why) =>
      process.stderr.write(`warren worker: warning: ${unconfinedWarning(why)}\n`),
  });
  return sandbox;
}

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

/** The child as a ChildRun of the worker's own runtime: its definitions, depth and date. */
function workerChild(run: RemoteChildRun): ChildRun {
  const { spec } = run;
  const definitions = resolveAgentDefinitions({});
  for (const definition of [...spec.definitions, spec.definition]) {
    definitions.set(definition.name, definition);
  }
  const runtime = new SubagentRuntime({
    definitions,
    maxDepth: spec.maxDepth,
    cwd: spec.cwd,
    sessionDate: sessionDate(new Date(run.startedAt)),
    remote: run.remote,
  });
  const ref = { agentId: spec.agentId, parentId: spec.parentId, depth: spec.depth };
  const owner = { agentId: spec.parentId, parentId: null, depth: spec.depth - 1 };
  return new ChildRun(runtime, ref, owner, {
    agentType: spec.definition.name,
    description: spec.description,
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
