// Writes a run's events as JSONL transcripts: the main agent's to `<session-id>.jsonl`, each
// sub-agent's to its sidechain file. Every line is in the OS before `write` returns, so a line
// shown to the user survives a crash or a kill; an agent's tool results are on disk (one sync
// for all of a turn's) before its next model request, so a resume never runs a finished call
// again; secrets are redacted on the way. An agent's file is closed when its result is written,
// so a run holds open only the files of running agents.
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type {
  AgentEvent,
  AgentEventOf,
  AgentEventType,
  AgentRef,
  RunResult,
} from '../core/events.js';
import type { Message } from '../core/messages.js';
import { redactingReplacer, secretValuesFromEnv } from '../core/secret-redaction.js';
import { agentTranscriptPath, mainTranscriptPath } from './session-paths.js';

// Moved to core (the task store and the Restate journal redact alike); exported here as before.
export {
  type RedactSecretsOptions,
  redactSecrets,
  secretValuesFromEnv,
} from '../core/secret-redaction.js';

/** Bumped when a record changes shape; readers skip records newer than they know. */
export const TRANSCRIPT_VERSION = 1;

/** What a finished run recorded about itself; the conversation is in the `message` records. */
export type TranscriptResult = Omit<RunResult, 'messages'>;

interface RecordEnvelope extends AgentRef {
  v: number;
  /** ISO 8601, when the line was written. */
  timestamp: string;
}

/**
 * The fields of the event a record keeps. Records reuse the event types: a field added to or
 * removed from one of these events fails to compile in toRecord until someone decides what the
 * transcript keeps (and bumps TRANSCRIPT_VERSION if a record changes shape).
 */
type EventFields<T extends AgentEventType> = Omit<AgentEventOf<T>, keyof AgentRef>;

/** One line of a transcript. */
export type TranscriptRecord = RecordEnvelope &
  (
    | EventFields<'run_start'>
    | { type: 'message'; message: Message }
    /**
     * With its output, so a result reported while other calls of its turn still run is on disk
     * before the `tool` message that gathers them all (resume reads it from here after a kill).
     */
    | EventFields<'tool_end'>
    | EventFields<'retry'>
    | EventFields<'usage'>
    | EventFields<'warning'>
    | ({ type: 'result' } & TranscriptResult)
    | EventFields<'worktree'>
  );

export type TranscriptRecordType = TranscriptRecord['type'];

export interface TranscriptWriterOptions {
  sessionDir: string;
  sessionId: string;
  /** Events of this agent go to the main file; every other agent gets a sidechain file. */
  mainAgentId: string;
  /** Whose secret-looking variables are redacted; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export class TranscriptWriter {
  readonly sessionDir: string;
  readonly sessionId: string;
  readonly mainAgentId: string;
  readonly #secrets: string[];
  readonly #files = new Map<string, number>();
  /** Agents whose file has tool results the OS holds but the disk may not yet. */
  readonly #unsynced = new Set<string>();
  #closed = false;

  constructor(options: TranscriptWriterOptions) {
    this.sessionDir = options.sessionDir;
    this.sessionId = options.sessionId;
    this.mainAgentId = options.mainAgentId;
    this.#secrets = secretValuesFromEnv(options.env ?? process.env);
  }

  /** The transcript file of an agent, whether or not it has been written yet. */
  pathFor(agentId: string): string {
    if (agentId === this.mainAgentId) return mainTranscriptPath(this.sessionDir, this.sessionId);
    return agentTranscriptPath(this.sessionDir, this.sessionId, agentId);
  }

  /** Appends the event's record to its agent's file; events not worth keeping are ignored. */
  write(event: AgentEvent): void {
    if (this.#closed) throw new Error('TranscriptWriter.write after close');
    // The agent is about to send its next model request: what its tools returned goes to disk
    // first, all of the turn's results (and the message gathering them) in one sync.
    if (event.type === 'turn_start') this.#sync(event.agentId);
    const record = toRecord(event, new Date().toISOString());
    if (!record) return;
    const line = JSON.stringify(record, redactingReplacer(this.#secrets));
    const fd = this.#fileOf(event.agentId);
    writeFully(fd, Buffer.from(`${line}\n`));
    // Synced before the agent's next model request (its `turn_start`), not one sync per call.
    if (record.type === 'tool_end') this.#unsynced.add(event.agentId);
    // Its last record: a tree of thousands of agents must not hold a descriptor for each. An
    // agent continued later (a message to a finished agent) gets its file opened again.
    if (record.type === 'result') this.#closeFile(event.agentId);
  }

  /** After `close`, `write` throws: a writer of late events checks this first. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Closes every file still open, flushing the main transcript to disk. Safe to call twice.
   * Sidechains are not flushed one by one: their lines are already in the OS, which a kill
   * cannot take away, and a disk flush per sub-agent would make ending a big tree take seconds.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const agentId of [...this.#files.keys()]) this.#closeFile(agentId);
  }

  #closeFile(agentId: string): void {
    const fd = this.#files.get(agentId);
    if (fd === undefined) return;
    this.#files.delete(agentId);
    if (agentId === this.mainAgentId) fsyncSync(fd);
    else if (this.#unsynced.has(agentId)) fdatasyncSync(fd);
    this.#unsynced.delete(agentId);
    closeSync(fd);
  }

  #sync(agentId: string): void {
    if (!this.#unsynced.delete(agentId)) return;
    const fd = this.#files.get(agentId);
    // The data, and the size that makes it readable: no timestamps, so no second disk write.
    if (fd !== undefined) fdatasyncSync(fd);
  }

  #fileOf(agentId: string): number {
    const open = this.#files.get(agentId);
    if (open !== undefined) return open;
    const path = this.pathFor(agentId);
    mkdirSync(dirname(path), { recursive: true });
    // 'a+' rather than 'a': on resume we read the last byte of the existing file.
    const fd = openSync(path, 'a+');
    endWithNewline(fd);
    this.#files.set(agentId, fd);
    return fd;
  }
}

/**
 * The record for an event, or undefined for events a transcript does not keep. The switch is
 * exhaustive so that a new event type fails to compile until someone decides about it here.
 */
function toRecord(event: AgentEvent, timestamp: string): TranscriptRecord | undefined {
  const envelope = {
    v: TRANSCRIPT_VERSION,
    agentId: event.agentId,
    parentId: event.parentId,
    depth: event.depth,
    timestamp,
  };
  switch (event.type) {
    case 'run_start': {
      const { agentType, description, model, tools, cwd, path, parentToolCallId } = event;
      return {
        ...envelope,
        type: 'run_start',
        agentType,
        description,
        model,
        tools,
        cwd,
        path,
        ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
      };
    }
    case 'message_end':
      return { ...envelope, type: 'message', message: event.message };
    case 'tool_end': {
      const { toolCallId, toolName, output, isError, durationMs } = event;
      return { ...envelope, type: 'tool_end', toolCallId, toolName, output, isError, durationMs };
    }
    case 'retry': {
      const { attempt, delayMs, error } = event;
      return { ...envelope, type: 'retry', attempt, delayMs, error };
    }
    case 'usage': {
      const { turn, usage, costUsd, durationMs, finishReason } = event;
      return { ...envelope, type: 'usage', turn, usage, costUsd, durationMs, finishReason };
    }
    case 'worktree': {
      const { action, path, branch, changed, diffStat } = event;
      return { ...envelope, type: 'worktree', action, path, branch, changed, diffStat };
    }
    case 'warning':
      return { ...envelope, type: 'warning', message: event.message };
    case 'result': {
      // The conversation is already in the file, one message record at a time.
      const { messages: _conversation, type: _type, ...result } = event;
      return { ...envelope, type: 'result', ...result };
    }
    // Deltas are replaced by the finished message; tool_start and turn_end repeat what the
    // assistant message already holds; turn_start and message_start carry nothing to resume from.
    // Task events are in the task store; the notification itself is a message of the owner.
    // A wait for a permission answer is a passing state, shown live; the answer is in tool_end.
    // A workflow's progress is in its own journal (tasks.db), not the caller's transcript.
    case 'turn_start':
    case 'message_start':
    case 'message_delta':
    case 'tool_start':
    case 'tool_delta':
    case 'turn_end':
    case 'task_started':
    case 'task_progress':
    case 'task_notification':
    case 'permission_wait':
    case 'workflow_start':
    case 'workflow_phase':
    case 'workflow_log':
    case 'workflow_warning':
    case 'workflow_item':
    case 'workflow_end':
      return undefined;
    default: {
      const unhandled: never = event;
      throw new Error(`no transcript record for ${JSON.stringify(unhandled)}`);
    }
  }
}

/** A process killed mid-line leaves a partial line; the next record must start on a line of its own. */
function endWithNewline(fd: number): void {
  const { size } = fstatSync(fd);
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] !== 0x0a) writeFully(fd, Buffer.from('\n'));
}

function writeFully(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written);
}
