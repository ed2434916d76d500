// After a crash, `--resume` continues the session's background work: what was delivered but not
// recorded is recorded, tasks of agents that are gone go to the new main agent, and every agent
// task that was running restarts from its sidechain transcript (in its own worktree if it had
// one; a remote one is attached to again, on its worker) with the messages it had not read. A
// finished call is never run again; one without a result is interrupted, or rerun if read-only.
import { existsSync, readFileSync } from 'node:fs';
import type { BackgroundChild, RemoteBackgroundChild } from '../agents/background-port.js';
import {
  type ChildWorkspace,
  finishChildWorktree,
  reopenChildWorktree,
} from '../agents/child-worktree.js';
import type { AgentDefinition } from '../agents/definitions/agent-definition.js';
import { remotePortOf } from '../agents/remote-child.js';
import { startOwnServers } from '../agents/run-subagent.js';
import {
  createSubagentContext,
  type ParentView,
  type Spawner,
  type SubagentOptions,
} from '../agents/subagent-context.js';
import type { AgentRef } from '../core/events.js';
import type { Message, ToolCallPart, ToolMessage } from '../core/messages.js';
import { signalGroup } from '../core/process-group.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import type { TaskOutcome, TaskRecord } from '../core/tasks.js';
import { isReadOnlyCall } from '../core/tool.js';
import { INTERRUPTED_TOOL_OUTPUT, readTranscript } from '../session/read-transcript.js';
import type { BackgroundTasks } from './background-tasks.js';
import { agentMessageIds, notifiedTaskIds } from './task-notification.js';

/** The first message of a restarted agent. */
export const RESUMED_PROMPT =
  'The session stopped unexpectedly and has been resumed. Continue your task from where you left off. Tool calls whose result says "Interrupted" did not finish: check their effects before repeating them.';

export interface ResumeParams {
  tasks: BackgroundTasks;
  spawner: Spawner;
  /** The new main agent, as children are derived from it. */
  main: ParentView;
  /** The resumed main conversation: notifications already in it count as delivered. */
  history: readonly Message[];
  /** Warnings for people (a damaged transcript line, a task that cannot restart). */
  warn?: (warning: string) => void;
}

/** What the resume did, for tests and the CLI's warnings. */
export interface ResumeReport {
  restarted: string[];
  ended: string[];
}

export async function resumeTasks(params: ResumeParams): Promise<ResumeReport> {
  const { tasks, main, history } = params;
  const { manager } = tasks;
  const warn = params.warn ?? (() => {});
  const mainRef: AgentRef = {
    agentId: main.agent.agentId,
    parentId: null,
    depth: 0,
  };
  // Delivered in the conversation, killed before the store heard of it: not delivered twice.
  manager.markDelivered(idsInUserMessages(history, notifiedTaskIds));

  const interrupted = manager
    .list()
    .filter((record) => record.status === 'running' || record.status === 'pending');
  const restartable = interrupted.filter(
    (record) => record.kind === 'local_agent' && record.agentId,
  );
  // A remote child ran on, on its worker: the resumed run attaches to it again (its result, even
  // one that came while this process was down, is kept by the engine).
  const reattachable = interrupted.filter(
    (record) => record.kind === 'remote_agent' && record.agentId && record.spec,
  );
  const continuing = new Set(restartable.map((record) => record.agentId));
  // An owner that is neither restarted nor the new main agent is gone: its tasks report to main.
  const orphans = manager
    .list()
    .filter(
      (record) =>
        record.owner.agentId !== mainRef.agentId &&
        !continuing.has(record.owner.agentId) &&
        (record.notifiedAt === null || interrupted.includes(record)),
    );
  manager.reown(
    orphans.map((record) => record.taskId),
    mainRef,
  );

  const report: ResumeReport = { restarted: [], ended: [] };
  const ending = interrupted.filter(
    (candidate) => !restartable.includes(candidate) && !reattachable.includes(candidate),
  );
  for (const record of ending) {
    manager.endInterrupted(record.taskId, interruptedOutcome(record));
    report.ended.push(record.taskId);
  }
  // Parents before their children, so an owner's inbox exists before its tasks report.
  for (const record of restartable.sort((a, b) => a.owner.depth - b.owner.depth)) {
    const fresh = manager.get(record.taskId)!;
    try {
      const child = await restartedChild(params, fresh);
      // Its inbox is open: what was sent to it and is not in its transcript is read first.
      const read = idsInUserMessages(child.options.messages ?? [], agentMessageIds);
      manager.redeliverMessages(fresh.taskId, read);
      manager.restart(fresh.taskId, tasks.agents, child, fresh.owner);
      report.restarted.push(fresh.taskId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      warn(`task ${fresh.taskId} could not be restarted: ${reason}`);
      manager.endInterrupted(fresh.taskId, {
        ...interruptedOutcome(fresh),
        error: `Could not be restarted after the session stopped: ${reason}`,
      });
      report.ended.push(fresh.taskId);
    }
  }
  for (const record of reattachable) reattach(params, manager.get(record.taskId)!, report);
  return report;
}

/**
 * Restarts one local agent task that ended without completing (a workflow item its run's
 * breaker stopped) from its sidechain transcript, under its task and agent ids, for `owner`: a
 * tool call whose result is on disk is not run again.
 */
export async function restartEndedAgent(
  params: Omit<ResumeParams, 'history'>,
  record: TaskRecord,
  owner: AgentRef,
): Promise<TaskRecord> {
  const { manager } = params.tasks;
  manager.reown([record.taskId], owner);
  const child = await restartedChild({ ...params, history: [] }, manager.get(record.taskId)!);
  return manager.restart(record.taskId, params.tasks.agents, child, owner);
}

/** The ids `find` finds in the user messages of a conversation. */
function idsInUserMessages(messages: readonly Message[], find: (text: string) => string[]) {
  return messages.flatMap((message) => (message.role === 'user' ? find(message.content) : []));
}

/** A `remote_agent` task again, under its old id: the same child, attached (submit is idempotent). */
function reattach(params: ResumeParams, record: TaskRecord, report: ResumeReport): void {
  const { tasks } = params;
  const spec = record.spec as RemoteChildSpec;
  // A `kind: remote` child re-attaches through its A2A agent; others need the Restate executor.
  const type = String(spec.definition?.name ?? record.agentType);
  const port = remotePortOf(tasks.runtime, type);
  if (typeof port === 'string') {
    const error = tasks.runtime.findDefinition(type)?.remote
      ? port
      : `It runs on a Restate worker, and this run has no remote executor: resume with --restate-url <ingress> (or WARREN_RESTATE_URL) to get its result.`;
    params.warn?.(`task ${record.taskId}: ${error}`);
    tasks.manager.endInterrupted(record.taskId, { ...interruptedOutcome(record), error });
    report.ended.push(record.taskId);
    return;
  }
  const child: RemoteBackgroundChild = {
    spec,
    owner: record.owner,
    ...(record.name === null ? {} : { name: record.name }),
  };
  tasks.manager.restart(record.taskId, tasks.remoteAgents, child, record.owner);
  report.restarted.push(record.taskId);
}

/** The child of a restarted task: its definition again, its conversation from its sidechain. */
async function restartedChild(params: ResumeParams, record: TaskRecord): Promise<BackgroundChild> {
  const { tasks, main } = params;
  const spec = record.spec as BackgroundChild['restart'] | null;
  const type = spec?.agentType ?? record.agentType ?? 'general-purpose';
  const defined = tasks.runtime.findDefinition(type);
  if (!defined) throw new Error(`the agent type "${type}" is not defined any more`);
  // A schema given for the call only (a workflow item's) holds again after the restart.
  const definition = spec?.outputSchema ? { ...defined, outputSchema: spec.outputSchema } : defined;
  // It goes on in its own worktree, bound as when it was made; one that is gone ends it.
  let workspace: ChildWorkspace | undefined;
  if (spec?.worktree) {
    const reopened = await reopenChildWorktree({
      worktreePath: spec.worktree,
      agentId: record.agentId!,
      parent: main,
    });
    if (!reopened.ok) throw new Error(reopened.message);
    ({ workspace } = reopened);
  }
  try {
    return await restartedIn(params, record, { definition, type, spec, workspace });
  } catch (error) {
    // However it fails to start again, its worktree is finished as a fresh child's would be.
    if (workspace) {
      const ref = { ...record.owner, agentId: record.agentId!, parentId: record.owner.agentId };
      await finishChildWorktree(workspace, { ...ref, depth: ref.depth + 1 }, record, () => {});
    }
    throw error;
  }
}

async function restartedIn(
  params: ResumeParams,
  record: TaskRecord,
  start: {
    definition: AgentDefinition;
    type: string;
    spec: BackgroundChild['restart'] | null;
    workspace: ChildWorkspace | undefined;
  },
): Promise<BackgroundChild> {
  const { tasks, spawner, main } = params;
  const { definition, type, spec, workspace } = start;
  const ownerEntry = tasks.runtime.directory.get(record.owner.agentId);
  const owner: ParentView['agent'] = {
    ...record.owner,
    agentType: ownerEntry?.agentType ?? 'agent',
    path: ownerEntry?.path ?? main.agent.path,
    background: record.owner.depth > 0,
  };
  const context = await createSubagentContext(
    spawner,
    {
      definition,
      prompt: spec?.prompt ?? '',
      description: record.description,
      model: spec?.model,
      forkContext: false,
      background: true,
      agentId: record.agentId!,
      agentPath: spec?.agentPath,
    },
    { ...main, agent: owner },
    { workspace },
  );
  const { options } = context;
  for (const warning of context.warnings) params.warn?.(warning);
  const servers = await startOwnServers(
    spawner,
    { definition, prompt: '', description: record.description, forkContext: false },
    { ...main, agent: owner, signal: tasks.signal },
    options,
  );
  const transcript = tasks.runtime.transcriptPathFor(record.agentId!);
  const base = {
    name: record.name ?? undefined,
    background: true,
    owner: record.owner,
    servers,
    workspace,
    restart: { ...spec, agentType: type, prompt: spec?.prompt ?? '', agentPath: options.agentPath },
  };
  // Killed before its first line: it starts over with its task.
  if (!transcript || !existsSync(transcript)) {
    return { ...base, prompt: spec?.prompt ?? RESUMED_PROMPT, options };
  }
  const { messages, warnings } = readTranscript(transcript);
  for (const warning of warnings) params.warn?.(warning);
  await rerunReadOnlyCalls(messages, options, tasks.signal);
  return { ...base, prompt: RESUMED_PROMPT, options: { ...options, messages } };
}

/**
 * Calls the crash cut off without a result are answered "interrupted" by readTranscript; those
 * that change nothing are run again (through the permission policy) and get their real result.
 * Every repaired result is written to the sidechain, so a second resume reads the same thing.
 */
async function rerunReadOnlyCalls(
  messages: Message[],
  options: SubagentOptions,
  signal: AbortSignal,
): Promise<void> {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const part of message.content)
        if (part.type === 'tool-call') calls.set(part.toolCallId, part);
    }
  }
  const cwd = options.cwd ?? process.cwd();
  const allowedDirs = options.allowedDirs ?? [cwd];
  const agent = {
    agentId: options.agentId,
    parentId: options.parentId ?? null,
    depth: options.depth ?? 1,
    agentType: options.agentType ?? 'agent',
    path: options.agentPath ?? options.agentId,
    background: true,
  };
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const interrupted = message.content.filter((part) => part.output === INTERRUPTED_TOOL_OUTPUT);
    if (interrupted.length === 0) continue;
    for (const part of interrupted) {
      const call = calls.get(part.toolCallId);
      const tool = options.tools?.find((candidate) => candidate.name === part.toolName);
      if (!call || !tool || tool.spawnsAgents) continue;
      const parsed = tool.inputSchema.safeParse(call.input);
      if (!parsed.success || !isReadOnlyCall(tool, parsed.data, { cwd, allowedDirs })) continue;
      const decision = await options.permissions?.decide({
        tool,
        input: parsed.data,
        cwd,
        allowedDirs,
        agent,
        signal,
      });
      if (decision?.behavior === 'deny') continue;
      try {
        const output = await tool.call(parsed.data, {
          toolCallId: part.toolCallId,
          signal,
          cwd,
          allowedDirs,
          fileState: options.fileState!,
          agent,
          progress: () => {},
          // Run again the way it first ran: in the run's sandbox.
          ...(options.commandSandbox && { sandbox: options.commandSandbox }),
        });
        part.output = typeof output === 'string' ? output : output.output;
        part.isError = typeof output !== 'string' && output.isError === true;
      } catch (error) {
        part.output = `${INTERRUPTED_TOOL_OUTPUT} Running it again (it changes nothing) failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    const repaired: ToolMessage = message;
    const { agentId, parentId, depth } = agent;
    options.onEvent?.({ agentId, parentId, depth, type: 'message_end', message: repaired });
  }
}

/** What a task that cannot go on after the crash reports. */
function interruptedOutcome(record: TaskRecord): TaskOutcome {
  if (record.kind === 'local_bash') stopLeftover(record);
  const what =
    record.kind === 'local_bash'
      ? 'The session stopped while the command ran; it was not run again.'
      : `The session stopped while it ran, and tasks of kind ${record.kind} cannot be restarted by this warren.`;
  return {
    status: 'failed',
    result: '',
    error: what,
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: record.resultPath,
  };
}

/**
 * A command's process group outlives a kill -9 of warren. It is stopped only if its leader still
 * carries this task's marker (WARREN_TASK_ID), so a reused process id is never hit.
 */
function stopLeftover(record: TaskRecord): void {
  const { pid } = record;
  if (!pid) return;
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    if (environ.split('\0').includes(`WARREN_TASK_ID=${record.taskId}`))
      signalGroup(pid, 'SIGKILL');
  } catch {
    // Gone already, or no /proc to check by (not Linux): leave it.
  }
}
