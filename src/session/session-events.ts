// A whole session read back as events: the main transcript and every sidechain, each record
// turned into the event it was written from, with the time it was written, in time order.
// What `warren usage` and `warren report` draw the agent tree from.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/config-error.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { emptyUsage } from '../core/usage.js';
import { mainTranscriptPath, validateSessionId } from './session-paths.js';
import { readTranscriptText } from './transcript-text.js';
import { TRANSCRIPT_VERSION } from './transcript-writer.js';

export interface TimedEvent {
  event: AgentEvent;
  /** When its record was written, in ms since the epoch. */
  at: number;
}

export interface SessionEvents {
  sessionId: string;
  /** The main transcript, then the sidechains. */
  files: string[];
  events: TimedEvent[];
  /** Lines that could not be read, each naming `file:line`; for people, not fatal. */
  warnings: string[];
}

/**
 * Reads every transcript of a session.
 * @param where the flag or argument that named the session, for errors (`warren usage <id>`).
 * @throws ConfigError for an unsafe id or a session that does not exist.
 */
export function readSessionEvents(options: {
  sessionDir: string;
  sessionId: string;
  where: string;
}): SessionEvents {
  const sessionId = validateSessionId(options.sessionId, { where: options.where });
  const main = mainTranscriptPath(options.sessionDir, sessionId);
  if (!existsSync(main)) {
    throw new ConfigError(
      `${options.where} ${sessionId}`,
      `no such session (looked for ${main})`,
      'pass the "session_id" of a run, and --session-dir if its transcripts are elsewhere',
    );
  }
  const agentsDir = join(options.sessionDir, sessionId, 'agents');
  const sidechains = existsSync(agentsDir)
    ? readdirSync(agentsDir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
        .map((name) => join(agentsDir, name))
    : [];
  const files = [main, ...sidechains];
  const warnings: string[] = [];
  const read: Array<TimedEvent & { file: number; line: number }> = [];
  files.forEach((file, fileIndex) => {
    readTranscriptText(file)
      .split('\n')
      .forEach((text, index) => {
        if (text.trim() === '') return;
        const warn = (problem: string) =>
          warnings.push(`${file}:${index + 1}: ${problem}; skipped`);
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(text) as Record<string, unknown>;
        } catch {
          warn('not a complete JSON line');
          return;
        }
        if (typeof record.v !== 'number' || record.v > TRANSCRIPT_VERSION) {
          warn('not a transcript record this warren reads');
          return;
        }
        const event = eventOf(record);
        const at = Date.parse(String(record.timestamp));
        if (!event || Number.isNaN(at)) {
          if (!event && typeof record.type === 'string' && KNOWN.has(record.type)) {
            warn(`malformed ${record.type} record`);
          }
          return;
        }
        read.push({ event, at, file: fileIndex, line: index });
      });
  });
  // Time order; within one millisecond a parent before its children, and each file in its order.
  read.sort(
    (a, b) => a.at - b.at || a.event.depth - b.event.depth || a.file - b.file || a.line - b.line,
  );
  return { sessionId, files, events: read.map(({ event, at }) => ({ event, at })), warnings };
}

const KNOWN = new Set(['run_start', 'message', 'tool_end', 'retry', 'usage', 'result']);

/** The event a record was written from; what the record does not keep comes back empty. */
function eventOf(record: Record<string, unknown>): AgentEvent | undefined {
  const { agentId, parentId, depth } = record;
  if (typeof agentId !== 'string' || typeof depth !== 'number') return undefined;
  if (parentId !== null && typeof parentId !== 'string') return undefined;
  const ref: AgentRef = { agentId, parentId, depth };
  const r = record as Record<string, unknown>;
  switch (record.type) {
    case 'run_start':
      return {
        ...ref,
        type: 'run_start',
        agentType: String(r.agentType ?? ''),
        description: String(r.description ?? ''),
        model: String(r.model ?? ''),
        tools: Array.isArray(r.tools) ? r.tools : [],
        cwd: String(r.cwd ?? ''),
        // Transcripts from before paths were recorded: the agent id keeps agents apart.
        path: typeof r.path === 'string' ? r.path : depth === 0 ? 'main' : agentId,
        ...(typeof r.parentToolCallId === 'string' ? { parentToolCallId: r.parentToolCallId } : {}),
      };
    case 'message':
      if (typeof r.message !== 'object' || r.message === null) return undefined;
      return { ...ref, type: 'message_end', message: r.message as Message };
    case 'tool_end':
      return {
        ...ref,
        type: 'tool_end',
        toolCallId: String(r.toolCallId ?? ''),
        toolName: String(r.toolName ?? ''),
        // Records before the output was kept have none.
        output: typeof r.output === 'string' ? r.output : '',
        isError: r.isError === true,
        durationMs: Number(r.durationMs ?? 0),
      };
    case 'retry':
      return {
        ...ref,
        type: 'retry',
        attempt: Number(r.attempt ?? 0),
        delayMs: Number(r.delayMs ?? 0),
        error: String(r.error ?? ''),
      };
    case 'usage':
      return {
        ...ref,
        type: 'usage',
        turn: Number(r.turn ?? 0),
        usage: { ...emptyUsage(), ...(record.usage as object) },
        costUsd: typeof r.costUsd === 'number' ? r.costUsd : null,
        durationMs: Number(r.durationMs ?? 0),
        finishReason: String(r.finishReason ?? 'unknown'),
      };
    case 'result': {
      if (typeof r.status !== 'string') return undefined;
      return {
        ...(record as unknown as Omit<AgentEventOfResult, 'messages'>),
        ...ref,
        type: 'result',
        usage: { ...emptyUsage(), ...(record.usage as object) },
        messages: [],
      };
    }
    default:
      return undefined;
  }
}

type AgentEventOfResult = Extract<AgentEvent, { type: 'result' }>;
