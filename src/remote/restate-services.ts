// The names and shapes of warren's Restate services, shared by the worker that serves them and
// the executor that calls them: the `subagent` workflow (key: agent id) and the `parentInbox`
// object (key: a session) where background children post their endings.
import type { RunResult } from '../core/events.js';
import type { RemoteEnding, RemoteProgress } from '../core/remote-executor.js';
import type { SealedResult } from './sealed-result.js';
import type { Sealed } from './signed-envelope.js';

export const SUBAGENT_SERVICE = 'subagent';
export const PARENT_INBOX_SERVICE = 'parentInbox';
/** A workflow run's record (key: run id), so another machine can resume the run. */
export const WORKFLOW_RECORD_SERVICE = 'workflowRecord';

/** What `status` answers: the invocation (to cancel it) and whether the child has ended. */
export interface SubagentStatus {
  invocationId: string | null;
  state: RemoteProgress['state'] | null;
}

/**
 * The `subagent` workflow as a client sees it: `run` takes a spec, the others are shared; each
 * takes its input sealed (signed-envelope.ts), reads a sealed empty body. Each
 * handler's first parameter is the worker's context, as the SDK's client types expect (a type,
 * not an interface: they want an object type with an index signature).
 */
export type SubagentApi = {
  /** The child's result, encrypted (sealed-result.ts) unless its worker has no key. */
  run(ctx: unknown, spec: Sealed): Promise<SealedResult | RunResult>;
  status(ctx: unknown, request: Sealed): Promise<SubagentStatus>;
  progress(ctx: unknown, request: Sealed): Promise<RemoteProgress | null>;
  message(ctx: unknown, text: Sealed): Promise<boolean>;
};

/** The `parentInbox` object: endings in, the list out, acknowledged ones forgotten. */
export type ParentInboxApi = {
  childDone(ctx: unknown, ending: Sealed): Promise<void>;
  pending(ctx: unknown, request: Sealed): Promise<RemoteEnding[]>;
  acknowledge(ctx: unknown, taskId: Sealed): Promise<void>;
};

/**
 * The `workflowRecord` object: named entries (`run`, `item:<key>#<occurrence>`), each encrypted
 * by the caller (sealed-record.ts); `write` sets some, `read` returns them all. Both sealed.
 */
export type WorkflowRecordApi = {
  write(ctx: unknown, entries: Sealed): Promise<void>;
  read(ctx: unknown, request: Sealed): Promise<Record<string, string>>;
};
