// The `subagent` workflow a worker serves: `run` is the child's agentLoop(), journaled; `status`
// and `progress` read its state while it runs; `message` leaves SendMessage text in its inbox.
// A cancelled invocation stops the child as a local one stops, and it returns what it had. Every
// handler takes a sealed request (signed-envelope.ts) and refuses one not signed with the key.

import * as restate from '@restatedev/restate-sdk';
import { z } from 'zod';
import type { RemotePort } from '../agents/remote-port.js';
import { AgentStop } from '../core/agent-stop.js';
import { messageOf } from '../core/error-message.js';
import type { RunResult } from '../core/events.js';
import type { RemoteEnding, RemoteProgress } from '../core/remote-executor.js';
import type { StepRunner } from '../core/step-runner.js';
import { ChildProgress } from './child-progress.js';
import { type CheckedChildSpec, checkChildSpec } from './child-spec-schema.js';
import {
  type InboxSlot,
  inboxSlot,
  JournaledInbox,
  MAX_INBOX_MESSAGES,
} from './journaled-inbox.js';
import { admitted, type RefusalLog, refuse, stderrLog } from './refusal.js';
import type { RunRemoteChild } from './remote-child-run.js';
import { RestateJournal } from './restate-journal.js';
import { PARENT_INBOX_SERVICE, SUBAGENT_SERVICE, type SubagentStatus } from './restate-services.js';
import { type SealedResult, sealResult } from './sealed-result.js';
import { READ_MAX_AGE_MS, type RemoteAuth, SIGNED_MAX_AGE_MS, seal } from './signed-envelope.js';
import { beyondLimits, DEFAULT_LIMITS, type WorkerLimits } from './worker-limits.js';

export interface WorkerSettings {
  /** Plans and runs one child from its checked spec (run/worker-child.ts: the composition root's). */
  runChild: RunRemoteChild;
  /** The shared remote key(s) requests must be signed with, or the explicit opt-out. */
  auth: RemoteAuth;
  /** What the worker's own configuration fixes (providers, endpoint, permission ceiling). */
  limits?: WorkerLimits;
  /** Where this worker's children's own children go (its `--restate-url`), if anywhere. */
  remote?: RemotePort;
  /** Where models' keys and endpoints are read: the worker's environment. */
  env?: Record<string, string | undefined>;
  /** Where refusals are written, a line each. Default: stderr. */
  log?: RefusalLog;
}

/** A message longer than this is refused: the inbox is not a file transfer. */
const MAX_MESSAGE_CHARS = 200_000;

const messageSchema = z.string().min(1).max(MAX_MESSAGE_CHARS);

export function subagentWorkflow(settings: WorkerSettings) {
  const { auth } = settings;
  const log = settings.log ?? stderrLog;
  const read = (input: unknown, ctx: restate.WorkflowSharedContext, kind: 'progress' | 'status') =>
    admitted(
      input,
      { auth, kind: `read-${kind}`, key: ctx.key, maxAgeMs: READ_MAX_AGE_MS },
      log,
      `a read of a child's ${kind}`,
    );
  return restate.workflow({
    name: SUBAGENT_SERVICE,
    handlers: {
      run: async (
        ctx: restate.WorkflowContext,
        input: unknown,
      ): Promise<SealedResult | RunResult> => {
        // The clock as the first attempt read it: a replay after a crash, hours later, still
        // finds the signature as fresh as it was then.
        const receivedAt = await ctx.run('received', () => Date.now());
        const { body } = admitted(
          input,
          { auth, kind: 'spec', key: ctx.key, maxAgeMs: SIGNED_MAX_AGE_MS, now: receivedAt },
          log,
          'a child spec',
        );
        const spec = checkedSpec(body, ctx.key, log);
        const beyond = beyondLimits(spec, settings.limits ?? DEFAULT_LIMITS);
        if (beyond) refuse(log, 'a child spec', ctx.key, beyond, 403);
        ctx.set('invocation', ctx.request().id);
        return sealResult(auth, spec.agentId, await runChild(ctx, spec, settings));
      },
      status: async (
        ctx: restate.WorkflowSharedContext,
        input: unknown,
      ): Promise<SubagentStatus> => {
        read(input, ctx, 'status');
        const progress = await ctx.get<RemoteProgress>('progress');
        return {
          invocationId: await ctx.get<string>('invocation'),
          state: progress?.state ?? null,
        };
      },
      progress: async (
        ctx: restate.WorkflowSharedContext,
        input: unknown,
      ): Promise<RemoteProgress | null> => {
        read(input, ctx, 'progress');
        return ctx.get<RemoteProgress>('progress');
      },
      message: async (ctx: restate.WorkflowSharedContext, input: unknown): Promise<boolean> => {
        const { body, nonce } = admitted(
          input,
          { auth, kind: 'message', key: ctx.key, maxAgeMs: SIGNED_MAX_AGE_MS },
          log,
          'a message',
        );
        const checked = messageSchema.safeParse(body);
        if (!checked.success) {
          throw new restate.TerminalError(
            'a message is a non-empty string of at most 200000 characters',
            { errorCode: 400 },
          );
        }
        // Before its first step (a SendMessage right after the start) it is taken too: the
        // child reads it after its first model call.
        const progress = await ctx.get<RemoteProgress>('progress');
        if (progress?.state === 'ended') return false;
        for (let n = 1; n <= MAX_INBOX_MESSAGES; n++) {
          const slot = ctx.promise<InboxSlot>(inboxSlot(n));
          const taken = await slot.peek();
          // The same signed message again (a retry, a replay) is delivered once.
          if (taken !== undefined && taken !== null && taken.id === nonce) return true;
          if (taken !== undefined) continue;
          try {
            await slot.resolve({ id: nonce, text: checked.data });
            return true;
          } catch {
            // Another sender took this slot first: the next one.
          }
        }
        return false;
      },
    },
    // The child hears of a cancel through the journal (restate-journal.ts), stops like a local
    // child, and ends with what it had, instead of an error at its next await.
    options: { explicitCancellation: true },
  });
}

export type SubagentWorkflow = ReturnType<typeof subagentWorkflow>;

function checkedSpec(body: string, key: string, log: RefusalLog): CheckedChildSpec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // JSON.parse's message quotes the text: not for the log.
    refuse(log, 'a child spec', key, 'it is not JSON', 400);
  }
  let spec: CheckedChildSpec;
  try {
    spec = checkChildSpec(parsed);
  } catch (error) {
    refuse(log, 'a child spec', key, messageOf(error), 400);
  }
  if (spec.agentId !== key) refuse(log, 'a child spec', key, 'it is for another agent', 400);
  return spec;
}

async function runChild(
  ctx: restate.WorkflowContext,
  spec: CheckedChildSpec,
  settings: WorkerSettings,
): Promise<RunResult> {
  const cancel = new AbortController();
  const progress = new ChildProgress();
  const journal = new RestateJournal(
    ctx,
    {
      onCancel: () =>
        cancel.abort(
          new AgentStop(
            'cancelled',
            spec.agentId,
            'Stopped: its invocation was cancelled (TaskStop, or its parent ended).',
          ),
        ),
      onStep: (step, outcome) => {
        if (step.kind === 'model') progress.modelEnded(outcome);
      },
    },
    { env: settings.env },
  );
  const inbox = new JournaledInbox(ctx, journal);
  const steps: StepRunner = {
    async run(step, work) {
      progress.started(step);
      try {
        return await journal.run(step, work);
      } finally {
        // After a model call, and only then: a point every replay passes in the same state.
        if (step.kind === 'model') {
          ctx.set('progress', journal.redact(progress.snapshot()));
          await inbox.collect();
        }
      }
    },
  };
  const clock = await journal.side('started', () => Date.now());
  ctx.set('progress', journal.redact(progress.snapshot()));
  const result = await settings.runChild({
    spec,
    steps,
    signal: cancel.signal,
    inbox,
    startedAt: clock.ok ? (clock.value as number) : 0,
    side: async (name, work) => {
      const outcome = await journal.side(name, work);
      if (!outcome.ok) throw new Error(outcome.error.message);
      return outcome.value as never;
    },
    remote: settings.remote,
    env: settings.env,
    modelBaseUrl: (settings.limits ?? DEFAULT_LIMITS).baseUrl,
  });
  ctx.set('progress', journal.redact(progress.ended()));
  // What the workflow returns and posts is kept by Restate too: redacted like a transcript.
  const kept = journal.redact(result);
  if (spec.notify) {
    // The last step posts the ending to the parent's durable inbox: its notification survives
    // the parent's process being down. The conversation stays with the workflow's result.
    const ending: RemoteEnding = {
      taskId: spec.notify.taskId,
      agentId: spec.agentId,
      result: { ...kept, messages: [] },
    };
    const { inbox: key } = spec.notify;
    // Sealed once, in the journal: a replay sends the same signed ending.
    const sealed = await journal.side('seal ending', () =>
      seal(settings.auth, 'ending', key, JSON.stringify(ending)),
    );
    if (sealed.ok) {
      ctx.genericSend({
        service: PARENT_INBOX_SERVICE,
        method: 'childDone',
        key,
        parameter: sealed.value,
        inputSerde: restate.serde.json,
      });
    }
  }
  return kept;
}
