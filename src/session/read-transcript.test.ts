import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { emptyUsage } from '../core/usage.js';
import { captureError } from '../testing/caught-errors.js';
import { useTempDir } from '../testing/temp-dir.js';
import { INTERRUPTED_TOOL_OUTPUT, loadSession, readTranscript } from './read-transcript.js';
import { TranscriptWriter } from './transcript-writer.js';

const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };

/** A tool result as the conversation holds it. */
function toolResult(toolCallId: string, toolName: string, output: string, isError: boolean) {
  return { type: 'tool-result', toolCallId, toolName, output, isError } as const;
}

/** The result that answers a call the process died before finishing. */
const interrupted = (toolCallId: string, toolName: string) =>
  toolResult(toolCallId, toolName, INTERRUPTED_TOOL_OUTPUT, true);

const conversation: Message[] = [
  { role: 'system', content: 'You are a careful engineer.' },
  { role: 'user', content: 'What is in notes.txt?' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me look.' },
      {
        type: 'tool-call',
        toolCallId: 'call-1',
        toolName: 'Read',
        input: { file_path: 'notes.txt' },
      },
      { type: 'tool-call', toolCallId: 'call-2', toolName: 'Glob', input: { pattern: '*.md' } },
    ],
  },
  {
    role: 'tool',
    content: [
      toolResult('call-1', 'Read', 'buy milk', false),
      toolResult('call-2', 'Glob', 'no matches', true),
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'It says: buy milk.' }] },
  { role: 'user', content: 'Thanks. Anything else?' },
  { role: 'assistant', content: [{ type: 'text', text: 'No.' }] },
];

/** The end of the conversation's Read call, as the loop reports it when the tool returns. */
const readEnded: AgentEvent = {
  ...main,
  type: 'tool_end',
  toolCallId: 'call-1',
  toolName: 'Read',
  output: 'buy milk',
  isError: false,
  durationMs: 3,
};

const sessionDir = useTempDir('warren-resume-');
let path: string;

beforeEach(() => {
  path = join(sessionDir(), 's1.jsonl');
});

/** The writer of session `s1`, whose main transcript is `path`. */
function openWriter(): TranscriptWriter {
  return new TranscriptWriter({
    sessionDir: sessionDir(),
    sessionId: 's1',
    mainAgentId: 'main',
    env: {},
  });
}

function writeSession(messages: Message[]): void {
  const writer = openWriter();
  for (const message of messages) writer.write({ ...main, type: 'message_end', message });
  writer.close();
}

describe('readTranscript', () => {
  it('rebuilds a multi-turn conversation with tool calls, system prompt first', () => {
    const usage = { ...emptyUsage(), inputTokens: 120, outputTokens: 30 };
    const writer = openWriter();
    writer.write({
      ...main,
      type: 'run_start',
      agentType: 'main',
      description: 'answer questions',
      model: 'scripted:x',
      tools: ['Read', 'Glob'],
      cwd: sessionDir(),
      path: 'main',
    });
    for (const message of conversation) writer.write({ ...main, type: 'message_end', message });
    writer.write(readEnded);
    writer.write({
      ...main,
      type: 'usage',
      turn: 3,
      usage,
      costUsd: 0.25,
      durationMs: 5,
      finishReason: 'stop',
    });
    const result = {
      ...main,
      subtype: 'success',
      status: 'completed',
      isError: false,
      result: 'No.',
      agentType: 'main',
      description: 'answer questions',
      numTurns: 3,
      toolCalls: 2,
      durationMs: 1500,
      usage,
      costUsd: 0.25,
    } as const;
    writer.write({ ...result, type: 'result', messages: conversation });
    writer.close();

    const transcript = readTranscript(path);
    expect(transcript.warnings).toEqual([]);
    expect(transcript.messages).toEqual(conversation);
    // The result record leaves the conversation out: it is already in the message records.
    expect(transcript.lastResult).toEqual(result);
  });

  it('skips a garbage middle line and a cut-off last line, naming each file:line', () => {
    writeSession(conversation.slice(0, 2));
    appendFileSync(path, 'this is not json\n');
    writeSession(conversation.slice(2));
    appendFileSync(path, '{"v":1,"type":"message","agentId":"main","message":{"role":"us');

    const { messages, warnings } = readTranscript(path);
    expect(messages).toEqual(conversation);
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^${escapeRegExp(path)}:3: .*skipped$`)),
      expect.stringMatching(
        new RegExp(`^${escapeRegExp(path)}:${conversation.length + 2}: .*skipped$`),
      ),
    ]);
  });

  it('skips records from a newer warren with a warning to upgrade', () => {
    writeSession(conversation.slice(0, 2));
    appendFileSync(
      path,
      `${JSON.stringify({ v: 2, type: 'message', message: { role: 'user', content: 'from the future' } })}\n`,
    );

    const { messages, warnings } = readTranscript(path);
    expect(messages).toEqual(conversation.slice(0, 2));
    expect(warnings).toEqual([expect.stringMatching(/:3: record version 2 .*upgrade/)]);
  });

  it('skips a message record that is not a valid message', () => {
    writeSession(conversation.slice(0, 2));
    appendFileSync(
      path,
      `${JSON.stringify({ v: 1, type: 'message', message: { role: 'robot' } })}\n`,
    );

    const { messages, warnings } = readTranscript(path);
    expect(messages).toEqual(conversation.slice(0, 2));
    expect(warnings).toEqual([expect.stringContaining(':3: malformed message')]);
  });

  it('answers tool calls a kill left without results, so the model accepts the conversation', () => {
    writeSession(conversation.slice(0, 3));

    const { messages, warnings } = readTranscript(path);
    expect(messages.slice(0, 3)).toEqual(conversation.slice(0, 3));
    expect(messages[3]).toEqual({
      role: 'tool',
      content: [interrupted('call-1', 'Read'), interrupted('call-2', 'Glob')],
    });
    expect(messages).toHaveLength(4);
    expect(warnings).toEqual([
      expect.stringContaining(`${path}:3: tool call Read (call-1) has no result`),
      expect.stringContaining(`${path}:3: tool call Glob (call-2) has no result`),
    ]);
  });

  it('keeps the result of a call that finished before the kill, from its tool_end record', () => {
    const writer = openWriter();
    for (const message of conversation.slice(0, 3)) {
      writer.write({ ...main, type: 'message_end', message });
    }
    // Read finished and was reported; Glob still ran when the process died.
    writer.write(readEnded);
    writer.close();

    const { messages, warnings } = readTranscript(path);
    expect(messages[3]).toEqual({
      role: 'tool',
      content: [toolResult('call-1', 'Read', 'buy milk', false), interrupted('call-2', 'Glob')],
    });
    expect(warnings).toEqual([
      expect.stringContaining(`${path}:3: tool call Glob (call-2) has no result`),
    ]);
  });

  it('drops tool results whose call was lost with a corrupt line', () => {
    writeSession(conversation.slice(0, 2));
    appendFileSync(path, '{"v":1,"type":"message","message":{"role":"assistant"\n');
    writeSession(conversation.slice(3));

    const { messages, warnings } = readTranscript(path);
    expect(messages).toEqual([...conversation.slice(0, 2), ...conversation.slice(4)]);
    expect(warnings).toEqual([
      expect.stringContaining(`${path}:3: not a complete JSON line`),
      expect.stringContaining(`${path}:4: result for tool call call-1 has no matching call`),
      expect.stringContaining(`${path}:4: result for tool call call-2 has no matching call`),
    ]);
  });

  it('warns about record types it does not know', () => {
    writeSession(conversation.slice(0, 1));
    appendFileSync(path, `${JSON.stringify({ v: 1, type: 'mystery' })}\n`);

    expect(readTranscript(path).warnings).toEqual([
      expect.stringContaining(':2: unknown record type "mystery"'),
    ]);
  });

  it('refuses a missing file, naming it', () => {
    expect(() => readTranscript(path)).toThrow(ConfigError);
    expect(() => readTranscript(path)).toThrow(path);
  });
});

describe('loadSession', () => {
  it('reads the main transcript of a session and says where it is', () => {
    writeSession(conversation);
    const session = loadSession({ sessionDir: sessionDir(), sessionId: 's1' });
    expect(session.path).toBe(path);
    expect(session.messages).toEqual(conversation);
  });

  it('names --resume <id>, where it looked, and the sessions that do exist', () => {
    writeSession(conversation.slice(0, 1));
    const error = captureError(() => loadSession({ sessionDir: sessionDir(), sessionId: 'nope' }));
    expect(ConfigError.isInstance(error)).toBe(true);
    const { where, message } = error as ConfigError;
    expect(where).toBe('--resume nope');
    expect(message).toContain(join(sessionDir(), 'nope.jsonl'));
    expect(message).toContain('s1');
  });

  it('says so when the session folder holds no sessions at all', () => {
    const error = captureError(() =>
      loadSession({ sessionDir: join(sessionDir(), 'none'), sessionId: 'x' }),
    );
    expect((error as ConfigError).fix).toMatch(/no sessions in .*--session-dir/);
  });

  it('refuses an id that would read outside the session folder', () => {
    writeFileSync(join(sessionDir(), 'secret.jsonl'), '');
    const error = captureError(() =>
      loadSession({ sessionDir: join(sessionDir(), 'sessions'), sessionId: '../secret' }),
    );
    expect((error as ConfigError).where).toBe('--resume');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
