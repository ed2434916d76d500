// Reads a JSONL transcript back into a conversation a run can resume from. Damage a crash can
// leave (a cut-off last line, a lost line, a tool call without its result) becomes a warning
// and a conversation the model will still accept, never a failed resume. A call that finished
// before the crash keeps its real result, from its `tool_end` record.
import { existsSync, readdirSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import {
  type Message,
  type ToolCallPart,
  type ToolResultPart,
  toolCallsOf,
} from '../core/messages.js';
import { mainTranscriptPath, validateSessionId } from './session-paths.js';
import { readTranscriptText } from './transcript-text.js';
import {
  TRANSCRIPT_VERSION,
  type TranscriptRecordType,
  type TranscriptResult,
} from './transcript-writer.js';

export interface Transcript {
  /** The conversation, system prompt first, ready to continue. */
  messages: Message[];
  /** What was skipped or repaired, each naming `file:line`; for people, not fatal. */
  warnings: string[];
  /** The last run result recorded in the file, if a run got that far. */
  lastResult?: TranscriptResult;
}

export interface LoadedSession extends Transcript {
  /** The main transcript that was read; a resumed run appends to it. */
  path: string;
}

export interface LoadSessionOptions {
  sessionDir: string;
  /** As the person gave it to `--resume`. */
  sessionId: string;
}

/** What an interrupted tool call is answered with on resume, so the model knows to check. */
export const INTERRUPTED_TOOL_OUTPUT =
  'Interrupted: the session stopped before this tool call finished. Its effects, if any, are unknown; check before repeating it.';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const toolCallPart = z.object({
  type: z.literal('tool-call'),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
});
const toolResultPart = z.object({
  type: z.literal('tool-result'),
  toolCallId: z.string(),
  toolName: z.string(),
  output: z.string(),
  isError: z.boolean(),
});
const filePart = z.object({
  type: z.literal('file'),
  mediaType: z.string(),
  data: z.string(),
  filename: z.string().optional(),
});
const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string(), files: z.array(filePart).optional() }),
  z.object({
    role: z.literal('assistant'),
    content: z.array(z.discriminatedUnion('type', [textPart, toolCallPart])),
  }),
  z.object({ role: z.literal('tool'), content: z.array(toolResultPart) }),
]);

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
});
const resultSchema = z.object({
  agentId: z.string(),
  parentId: z.string().nullable(),
  depth: z.number(),
  subtype: z.enum(['success', 'error_max_turns', 'error_budget', 'error_during_execution']),
  status: z.enum([
    'completed',
    'failed',
    'cancelled',
    'max_turns',
    'budget',
    'stalled',
    'no_progress',
  ]),
  isError: z.boolean(),
  result: z.string(),
  error: z.string().optional(),
  agentType: z.string(),
  description: z.string(),
  numTurns: z.number(),
  toolCalls: z.number(),
  durationMs: z.number(),
  usage: usageSchema,
  costUsd: z.number().nullable(),
});

const envelopeSchema = z.object({ v: z.number().int(), type: z.string() });

/** A finished call's result; records older than this field have none and are skipped. */
const toolEndSchema = z.object({
  toolCallId: z.string(),
  toolName: z.string(),
  output: z.string(),
  isError: z.boolean(),
});

/** Records a reader may meet and resume ignores: they are for people and tools reading the file. */
const INFORMATIONAL: ReadonlySet<TranscriptRecordType> = new Set([
  'run_start',
  'retry',
  'usage',
  'worktree',
]);

/** A message and the line it came from, so repairs can point at it. */
interface Entry {
  message: Message;
  line: number;
}

/** Reads a transcript; a missing file is a ConfigError naming the file. */
export function readTranscript(path: string): Transcript {
  if (!existsSync(path)) {
    throw new ConfigError(path, 'no transcript at this path', 'check the session folder and id');
  }
  const warnings: string[] = [];
  const entries: Entry[] = [];
  const finished = new Map<string, ToolResultPart>();
  let lastResult: TranscriptResult | undefined;

  const lines = readTranscriptText(path).split('\n');
  lines.forEach((text, index) => {
    const line = index + 1;
    const warn = (problem: string) => warnings.push(`${path}:${line}: ${problem}; skipped`);
    if (text.trim() === '') return;

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      warn('not a complete JSON line (cut off by a crash?)');
      return;
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      warn('not a transcript record (no "v" and "type")');
      return;
    }
    const { v, type } = envelope.data;
    if (v > TRANSCRIPT_VERSION) {
      warn(
        `record version ${v} is newer than this warren reads (${TRANSCRIPT_VERSION}); upgrade warren to read it`,
      );
      return;
    }
    if (type === 'message') {
      const message = messageSchema.safeParse((json as { message?: unknown }).message);
      if (message.success) entries.push({ message: message.data, line });
      else warn(`malformed message (${z.prettifyError(message.error).replaceAll('\n', ' ')})`);
      return;
    }
    if (type === 'tool_end') {
      const end = toolEndSchema.safeParse(json);
      if (end.success) finished.set(end.data.toolCallId, { type: 'tool-result', ...end.data });
      return;
    }
    if (type === 'result') {
      const result = resultSchema.safeParse(json);
      if (result.success) lastResult = result.data;
      else warn(`malformed result (${z.prettifyError(result.error).replaceAll('\n', ' ')})`);
      return;
    }
    if (!INFORMATIONAL.has(type as TranscriptRecordType)) warn(`unknown record type "${type}"`);
  });

  const messages = pairToolCalls(entries, finished, (line, problem) =>
    warnings.push(`${path}:${line}: ${problem}`),
  );
  return lastResult ? { messages, warnings, lastResult } : { messages, warnings };
}

/** Reads the main transcript of a session named by a person with `--resume <id>`. */
export function loadSession(options: LoadSessionOptions): LoadedSession {
  const sessionId = validateSessionId(options.sessionId);
  const path = mainTranscriptPath(options.sessionDir, sessionId);
  if (!existsSync(path)) {
    throw new ConfigError(
      `--resume ${sessionId}`,
      `no such session (looked for ${path})`,
      recentSessionsHint(options.sessionDir),
    );
  }
  return { ...readTranscript(path), path };
}

function recentSessionsHint(sessionDir: string): string {
  const recent = existsSync(sessionDir)
    ? readdirSync(sessionDir)
        .filter((name) => name.endsWith('.jsonl'))
        .map((name) => name.slice(0, -'.jsonl'.length))
        .sort()
        .reverse()
        .slice(0, 3)
    : [];
  if (recent.length === 0) {
    return `there are no sessions in ${sessionDir}; pass --session-dir if they were written elsewhere`;
  }
  return `the latest sessions in ${sessionDir} are ${recent.join(', ')}; or pass --session-dir if it was written elsewhere`;
}

/**
 * Providers refuse a tool call without a result and a result without its call. A kill while a
 * tool ran leaves the first; a lost assistant line leaves the second. A call whose `tool` message
 * never came keeps the result its `tool_end` recorded (`finished`); the others become error
 * results telling the model the call was interrupted. Orphaned results are dropped.
 */
function pairToolCalls(
  entries: Entry[],
  finished: ReadonlyMap<string, ToolResultPart>,
  warn: (line: number, problem: string) => void,
): Message[] {
  const messages: Message[] = [];
  let pending = new Map<string, ToolCallPart>();
  let pendingLine = 0;

  const answerPending = () => {
    if (pending.size === 0) return;
    const content: ToolResultPart[] = [...pending.values()].map((call) => {
      const result = finished.get(call.toolCallId);
      if (result) return result;
      warn(
        pendingLine,
        `tool call ${call.toolName} (${call.toolCallId}) has no result; resuming with an "interrupted" error result`,
      );
      return {
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: INTERRUPTED_TOOL_OUTPUT,
        isError: true,
      };
    });
    messages.push({ role: 'tool', content });
    pending = new Map();
  };

  for (const { message, line } of entries) {
    if (message.role === 'tool') {
      const content = message.content.filter((part) => {
        if (pending.delete(part.toolCallId)) return true;
        warn(line, `result for tool call ${part.toolCallId} has no matching call; dropped`);
        return false;
      });
      if (content.length > 0) messages.push({ role: 'tool', content });
      continue;
    }
    answerPending();
    messages.push(message);
    if (message.role === 'assistant') {
      pending = new Map(toolCallsOf(message).map((call) => [call.toolCallId, call]));
      pendingLine = line;
    }
  }
  answerPending();
  return messages;
}
