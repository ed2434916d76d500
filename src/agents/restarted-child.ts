// Children of a crashed session again (`--resume`), as ChildRuns: a local one from its sidechain
// transcript, in its own worktree if it had one, with the calls the crash cut off answered; a
// remote one attached to again on its worker. tasks/resume-tasks.ts decides which, and when.

import { existsSync } from 'node:fs';
import type { ChildRestarts, ChildResume } from '../core/background-port.js';
import { messageOf } from '../core/error-message.js';
import type { AgentRef } from '../core/events.js';
import type { Message, ToolCallPart, ToolMessage } from '../core/messages.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import type { TaskRecord } from '../core/tasks.js';
import { isReadOnlyCall } from '../core/tool.js';
import { type ChildRestart, ChildRun } from './child-run.js';
import { RemoteChildTask } from './remote-child-task.js';
import { remotePortOf } from './remote-ending.js';
import {
  createSubagentContext,
  type ParentView,
  type Spawner,
  type SubagentOptions,
} from './subagent-context.js';

/** The restarts of one resumed run: its children are derived from `main`, its new main agent. */
export function childRestarts(spawner: Spawner, main: ParentView): ChildRestarts {
  const { agentId } = main.agent;
  return {
    main: { agentId, parentId: null, depth: 0 },
    restart: (record, resume) => restartedChild(spawner, main, record, resume),
    reattach: (record) => reattachedChild(spawner, main, record),
  };
}

/** A `remote_agent` task's child under its old id: the same child (its submit is idempotent). */
function reattachedChild(
  spawner: Spawner,
  main: ParentView,
  record: TaskRecord,
): RemoteChildTask | string {
  const { runtime } = spawner;
  const spec = record.spec as RemoteChildSpec;
  // A `kind: remote` child re-attaches through its A2A agent; others need the Restate executor.
  const type = String(spec.definition?.name ?? record.agentType);
  const port = remotePortOf(runtime, type);
  if (typeof port === 'string') {
    return runtime.findDefinition(type)?.remote
      ? port
      : `It runs on a Restate worker, and this run has no remote executor: resume with --restate-url <ingress> (or WARREN_RESTATE_URL) to get its result.`;
  }
  return new RemoteChildTask(runtime, spec, {
    owner: record.owner,
    ...(record.name === null ? {} : { name: record.name }),
    record: main.run.inherited.onEvent,
  });
}

/** The child of a restarted task: its definition again, its conversation from its sidechain. */
async function restartedChild(
  spawner: Spawner,
  main: ParentView,
  record: TaskRecord,
  resume: ChildResume,
): Promise<{ child: ChildRun; messages: readonly Message[] }> {
  const { prompt } = resume;
  const { runtime } = spawner;
  const spec = record.spec as ChildRestart | null;
  const type = spec?.agentType ?? record.agentType ?? 'general-purpose';
  const defined = runtime.findDefinition(type);
  if (!defined) throw new Error(`the agent type "${type}" is not defined any more`);
  // A schema given for the call only (a workflow item's) holds again after the restart.
  const definition = spec?.outputSchema ? { ...defined, outputSchema: spec.outputSchema } : defined;
  const { owner } = record;
  const agentId = record.agentId!;
  const ref: AgentRef = { agentId, parentId: owner.agentId, depth: owner.depth + 1 };
  const run = new ChildRun(runtime, ref, owner, {
    agentType: type,
    description: record.description,
    name: record.name ?? undefined,
  });
  run.background = true;
  run.record = main.run.inherited.onEvent;
  // It goes on in its own worktree, bound as when it was made; one that is gone ends it.
  if (spec?.worktree) await run.replace(spec.worktree, main);
  try {
    const ownerEntry = runtime.directory.get(owner.agentId);
    const parent: ParentView = {
      ...main,
      agent: {
        ...owner,
        agentType: ownerEntry?.agentType ?? 'agent',
        path: ownerEntry?.path ?? main.agent.path,
        background: owner.depth > 0,
      },
    };
    const request = {
      definition,
      prompt: spec?.prompt ?? '',
      description: record.description,
      model: spec?.model,
      forkContext: false,
      background: true,
      agentId,
      agentPath: spec?.agentPath,
    };
    const start = await createSubagentContext(spawner, request, parent, run);
    for (const warning of run.derived(start)) resume.warn(warning);
    const signal = runtime.background?.signal ?? main.run.cancelSignal;
    await run.startServers(request, { ...parent, signal });
    const { options } = run;
    run.restart = {
      ...spec,
      agentType: type,
      prompt: spec?.prompt ?? '',
      agentPath: options.agentPath,
    };
    const transcript = runtime.transcriptPathFor(agentId);
    // Killed before its first line: it starts over with its task.
    if (!transcript || !existsSync(transcript)) {
      run.prompt = spec?.prompt ?? prompt;
      return { child: run, messages: options.messages ?? [] };
    }
    const { messages, warnings } = resume.read(transcript);
    for (const warning of warnings) resume.warn(warning);
    await rerunReadOnlyCalls(messages, options, signal, resume.interrupted);
    run.prompt = prompt;
    options.messages = messages;
    return { child: run, messages };
  } catch (error) {
    // However it fails to start again, its worktree is finished as a fresh child's would be,
    // quietly: it never ran again.
    run.record = undefined;
    await run.finish(undefined, () => {});
    throw error;
  }
}

/**
 * Calls the crash cut off without a result are answered `interrupted` by the transcript reader;
 * those that change nothing are run again (through the permission policy) and get their real
 * result. Every repaired result is written to the sidechain, so a second resume reads the same.
 */
async function rerunReadOnlyCalls(
  messages: Message[],
  options: SubagentOptions,
  signal: AbortSignal,
  interrupted: string,
): Promise<void> {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const part of message.content)
        if (part.type === 'tool-call') calls.set(part.toolCallId, part);
    }
  }
  const { cwd, allowedDirs } = options;
  const agent = {
    agentId: options.agentId,
    parentId: options.parentId,
    depth: options.depth,
    agentType: options.agentType,
    path: options.agentPath,
    background: true,
  };
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const cut = message.content.filter((part) => part.output === interrupted);
    if (cut.length === 0) continue;
    for (const part of cut) {
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
        part.output = `${interrupted} Running it again (it changes nothing) failed: ${messageOf(error)}`;
      }
    }
    const repaired: ToolMessage = message;
    const { agentId, parentId, depth } = agent;
    options.onEvent?.({ agentId, parentId, depth, type: 'message_end', message: repaired });
  }
}
