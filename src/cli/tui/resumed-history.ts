// A resumed session on screen as it was left: its conversation (prompts, answers, tool calls with
// how long each took) and what its agents spent so far, read from its transcripts, so the person
// sees where they are and the status line does not start again at 0 tokens.
import type { Message } from '../../core/messages.js';
import { readSessionEvents, type TimedEvent } from '../../session/session-events.js';
import { callSummary } from './call-summary.js';
import { isNotification } from './user-prompts.js';
import type { NewEntry } from './view-items.js';

/** The entries of `history` (the main agent's conversation), in order. */
export function historyEntries(
  history: readonly Message[],
  options: { cwd: string; durations?: ReadonlyMap<string, number> },
): NewEntry[] {
  const calls = new Map<string, { name: string; input: unknown }>();
  return history.flatMap((message): NewEntry[] => {
    switch (message.role) {
      case 'user':
        return isNotification(message.content) ? [] : [{ kind: 'user', text: message.content }];
      case 'assistant': {
        const entries: NewEntry[] = [];
        let text = '';
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else calls.set(part.toolCallId, { name: part.toolName, input: part.input });
        }
        if (text.trim()) entries.push({ kind: 'assistant', text: text.trim() });
        return entries;
      }
      case 'tool':
        return message.content.map((part): NewEntry => {
          const call = calls.get(part.toolCallId);
          return {
            kind: 'tool',
            summary: callSummary(part.toolName, call?.input, options.cwd),
            isError: part.isError,
            durationMs: options.durations?.get(part.toolCallId) ?? 0,
            ...(part.isError ? { detail: part.output.split('\n', 1)[0] ?? '' } : {}),
          };
        });
      default:
        return [];
    }
  });
}

/**
 * The session's recorded events (every agent's), and how long each main-agent tool call took;
 * nothing when the transcripts cannot be read (the conversation alone is still shown).
 */
export function recordedSession(
  sessionDir: string,
  sessionId: string,
): { events: TimedEvent[]; durations: Map<string, number> } {
  let events: TimedEvent[];
  try {
    events = readSessionEvents({ sessionDir, sessionId, where: '--resume' }).events;
  } catch {
    return { events: [], durations: new Map() };
  }
  const durations = new Map<string, number>();
  for (const { event } of events) {
    if (event.type === 'tool_end' && event.depth === 0) {
      durations.set(event.toolCallId, event.durationMs);
    }
  }
  return { events, durations };
}
