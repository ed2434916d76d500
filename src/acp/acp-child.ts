// A `kind: acp` child: an external ACP agent (Gemini CLI, a Claude Code or Codex adapter,
// another warren) run as a process in its own group, with warren as its ACP client. It yields
// the events a child's loop would, so foreground, background, worktrees and TaskStop treat it
// as any child; its questions go to warren's gate, its file access through warren's checks.

import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { Budget } from '../core/budget.js';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, AgentStatus, RunResult } from '../core/events.js';
import type { HookRunner } from '../core/hook-runner.js';
import type { Message } from '../core/messages.js';
import { releaseGroup, signalGroup, stopGroup, trackGroup } from '../core/process-group.js';
import type { TraceContextSource } from '../core/trace-context.js';
import { addUsage, budgetTokens, emptyUsage, type Usage } from '../core/usage.js';
import { EventChannel } from '../loop/event-channel.js';
import { subtypeOf } from '../loop/run-result.js';
import { expandVariables } from '../mcp/expand-env.js';
import { ChildEvents } from './child-events.js';
import { ChildFiles } from './child-files.js';
import { ChildHooks } from './child-hooks.js';
import { type ChildAsker, decideChildPermission } from './child-permission.js';
import { usageOfResponse } from './prompt-usage.js';

/** A definition's `command`, `args` and `env`: how the external agent is started. */
export interface AcpCommand {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
}

export interface AcpChildRun extends Omit<ChildAsker, 'agent'> {
  prompt: string;
  acp: AcpCommand;
  agentId: string;
  parentId: string | null;
  depth: number;
  agentType: string;
  description: string;
  agentPath: string;
  parentToolCallId?: string;
  background?: boolean;
  /** The child's node of the tree's budget: its time limit stops the agent as `budget`. */
  budget?: Budget;
  /** Where its span's traceparent comes from, when the run is traced: sent in `_meta`. */
  traceContext?: TraceContextSource;
  /** Its hooks: SubagentStart and SubagentStop around its run, as a local child's. */
  hooks?: HookRunner;
}

/** The variables every started process gets (as MCP servers do); the rest only when named. */
const BASE_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'];
/** After a cancel, how long the child has to answer its prompt before it is stopped. */
const CANCEL_GRACE_MS = 3000;
const STDERR_KEPT = 2000;
/** After the prompt, how long the agent has to exit once its stdin is closed. */
const EXIT_WAIT_MS = 3000;

export async function* runAcpChild(run: AcpChildRun): AsyncGenerator<AgentEvent, void> {
  const channel = new EventChannel<AgentEvent>();
  const done = drive(run, (event) => channel.push(event)).finally(() => channel.close());
  try {
    for await (const event of channel) yield event;
  } finally {
    await done;
  }
}

async function drive(run: AcpChildRun, emit: (event: AgentEvent) => void): Promise<void> {
  const ref = { agentId: run.agentId, parentId: run.parentId, depth: run.depth };
  const started = Date.now();
  emit({
    ...ref,
    type: 'run_start',
    agentType: run.agentType,
    description: run.description,
    model: `acp:${basename(run.acp.command)}`,
    tools: [],
    cwd: run.cwd,
    path: run.agentPath,
    ...(run.parentToolCallId ? { parentToolCallId: run.parentToolCallId } : {}),
  });
  const hooks = new ChildHooks(
    run.hooks,
    {
      agent: { ...ref, agentType: run.agentType, path: run.agentPath },
      cwd: run.cwd,
      signal: run.signal,
    },
    (message) => emit({ ...ref, type: 'warning', message }),
  );
  const admitted = await hooks.admit(run.prompt);
  emit({ ...ref, type: 'turn_start', turn: 1 });
  emit({ ...ref, type: 'message_start' });
  let status: AgentStatus = 'completed';
  let error: string | undefined;
  let stderr = '';
  let prompts = 0;
  // The tree's limits bound an external agent: time always; tokens and dollars as far as it
  // reports them (a prompt response's `usage`, `usage_update`'s cost).
  const outOfTime = new AbortController();
  const spent = (tokens: number, costUsd: number) => {
    run.budget?.spend(tokens, costUsd);
    if (run.budget?.exhausted()) outOfTime.abort();
  };
  const events = new ChildEvents(ref, emit, (deltaUsd) => spent(0, deltaUsd));
  const usage = emptyUsage();
  const deadline = run.budget?.effectiveDeadline() ?? Number.POSITIVE_INFINITY;
  const timer = Number.isFinite(deadline)
    ? setTimeout(() => outOfTime.abort(), Math.max(0, deadline - Date.now()))
    : undefined;
  const signal = AbortSignal.any([run.signal, outOfTime.signal]);
  const stopped = (): AgentStatus | undefined =>
    outOfTime.signal.aborted ? 'budget' : run.signal.aborted ? 'cancelled' : undefined;
  let hooksAsked = false;
  /** Where the reply to the latest prompt starts in the agent's text: its result. */
  let replyStart = 0;
  try {
    if ('refused' in admitted) throw new RefusedPrompt(admitted.refused);
    const stop = await talk({ ...run, signal }, events, {
      first: admitted.prompt,
      onStderr: (text) => {
        stderr = (stderr + text).slice(-STDERR_KEPT);
      },
      used: (reported) => {
        prompts++;
        if (!reported) return;
        addUsage(usage, reported);
        spent(budgetTokens(reported), 0);
      },
      // Each time the agent would end, SubagentStop hooks may send it back to work.
      next: async (reason) => {
        hooksAsked = true;
        const ending = stopped() ?? statusOf(reason);
        const reply = events.text.slice(replyStart);
        const goOn = await hooks.stop(ending, reply, reason === 'refusal' ? REFUSED : undefined);
        if (goOn !== undefined) replyStart = events.text.length;
        return goOn;
      },
    });
    status = stopped() ?? statusOf(stop);
    if (stop === 'refusal') error = REFUSED;
  } catch (caught) {
    status = stopped() ?? 'failed';
    const tail = stderr.trim() ? ` (its stderr ends: ${stderr.trim().slice(-400)})` : '';
    error =
      caught instanceof RefusedPrompt
        ? caught.message
        : `the ACP agent \`${run.acp.command}\` failed: ${messageOf(caught)}${tail}`;
  } finally {
    clearTimeout(timer);
  }
  if (status === 'budget') error = `the ${run.budget?.exhausted() ?? 'time'} budget ran out`;
  if (status === 'cancelled') error ??= 'cancelled';
  if (!hooksAsked) await hooks.stop(status, events.text.slice(replyStart), error);
  if (hooks.fatal !== undefined) error = hooks.fatal;
  events.endOpen(error ?? 'the agent ended before the call did');
  const reply: Message = { role: 'assistant', content: [{ type: 'text', text: events.text }] };
  emit({ ...ref, type: 'message_end', message: reply });
  // One "model call" as warren counts them: the tokens and dollars the agent reported.
  emit({
    ...ref,
    type: 'usage',
    turn: 1,
    usage,
    costUsd: events.costUsd,
    durationMs: Date.now() - started,
    finishReason: status === 'completed' ? 'stop' : 'other',
  });
  emit({ ...ref, type: 'turn_end', turn: 1, message: reply });
  const result: RunResult = {
    ...ref,
    subtype: subtypeOf(status),
    status,
    isError: status !== 'completed',
    result: events.text.slice(replyStart),
    ...(error ? { error } : {}),
    ...(hooks.fatal !== undefined ? { fatal: true } : {}),
    ...(hooks.handoff ? { handoff: hooks.handoff } : {}),
    agentType: run.agentType,
    description: run.description,
    numTurns: Math.max(1, prompts),
    toolCalls: events.toolCalls,
    durationMs: Date.now() - started,
    usage: { ...usage },
    costUsd: events.costUsd,
    messages: [{ role: 'user', content: run.prompt }, reply],
  };
  emit({ ...result, type: 'result' });
}

/** The prompts of one child: the first, and what hooks send it back to work with. */
interface Conversation {
  first: string;
  onStderr: (text: string) => void;
  /** What a prompt's response said it spent (undefined: nothing said). */
  used: (usage: Usage | undefined) => void;
  /** The agent would end for `reason`: the next prompt, or undefined to end. */
  next: (reason: StopReason) => Promise<string | undefined>;
}

const REFUSED = 'the agent refused the prompt';

/** A SubagentStart hook refused the child's prompt: the agent is not started. */
class RefusedPrompt extends Error {}

/** Starts the agent, runs its prompts over ACP, and stops the agent's process group. */
async function talk(
  run: AcpChildRun,
  events: ChildEvents,
  conversation: Conversation,
): Promise<StopReason> {
  const { onStderr } = conversation;
  run.signal.throwIfAborted();
  const env: Record<string, string> = {};
  for (const name of BASE_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
  for (const [name, value] of Object.entries(run.acp.env))
    env[name] = expandVariables(value, process.env);
  const child = spawn(run.acp.command, [...run.acp.args], {
    cwd: run.cwd,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.stderr.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
  await spawned;
  const pid = child.pid!;
  trackGroup(pid);
  const asker: ChildAsker = {
    agent: {
      agentId: run.agentId,
      parentId: run.parentId,
      depth: run.depth,
      agentType: run.agentType,
      path: run.agentPath,
      ...(run.background ? { background: true } : {}),
    },
    cwd: run.cwd,
    allowedDirs: run.allowedDirs,
    permissions: run.permissions,
    signal: run.signal,
  };
  const files = new ChildFiles(asker);
  const app = client({ name: 'warren' })
    .onNotification(methods.client.session.update, ({ params }) => events.apply(params.update))
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      const { response, allowed } = await decideChildPermission(params, asker);
      if (allowed)
        for (const location of params.toolCall.locations ?? []) files.allowEdit(location.path);
      return response;
    })
    .onRequest(methods.client.fs.readTextFile, ({ params }) => files.read(params))
    .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
      await files.write(params);
      return {};
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  const gone = exited.then(() => {
    throw new Error('the process exited before it answered');
  });
  let sessionId: string | undefined;
  const cancel = () => {
    if (sessionId)
      void connection.agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
    setTimeout(() => stopGroup(pid, 1000), CANCEL_GRACE_MS).unref();
  };
  run.signal.addEventListener('abort', cancel, { once: true });
  try {
    const agent = connection.agent;
    await Promise.race([
      agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        clientInfo: { name: 'warren', version: '0' },
      }),
      gone,
    ]);
    const session = await Promise.race([
      agent.request(methods.agent.session.new, { cwd: run.cwd, mcpServers: [] }),
      gone,
    ]);
    sessionId = session.sessionId;
    // ACP's place for W3C trace context is `_meta.traceparent`: its spans continue this child's.
    const traceparent = await run.traceContext?.traceparentOf(run.agentId);
    run.signal.throwIfAborted();
    for (let text: string | undefined = conversation.first; ; ) {
      const response = await Promise.race([
        agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text }],
          ...(traceparent ? { _meta: { traceparent } } : {}),
        }),
        gone,
      ]);
      conversation.used(usageOfResponse(response));
      text = await conversation.next(response.stopReason);
      if (text === undefined || run.signal.aborted) return response.stopReason;
    }
  } finally {
    run.signal.removeEventListener('abort', cancel);
    connection.close();
    child.stdin.end();
    // Its stdin closed, an agent ends by itself; one that does not is stopped.
    const quit = await Promise.race([
      exited.then(() => true),
      sleep(EXIT_WAIT_MS).then(() => false),
    ]);
    if (!quit) {
      stopGroup(pid, 1000);
      await exited;
    }
    // Whatever it started and left behind in its group goes with it.
    signalGroup(pid, 'SIGKILL');
    releaseGroup(pid);
  }
}

function statusOf(stop: StopReason): AgentStatus {
  if (stop === 'cancelled') return 'cancelled';
  if (stop === 'max_turn_requests') return 'max_turns';
  if (stop === 'refusal') return 'failed';
  return 'completed';
}
