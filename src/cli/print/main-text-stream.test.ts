import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRef } from '../../core/events.js';
import { mainTextStream } from './main-text-stream.js';

const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };
const child: AgentRef = { agentId: 'child', parentId: 'main', depth: 1 };

/** One reply of an agent as the loop reports it, its text in the pieces given. */
function reply(who: AgentRef, ...pieces: string[]): AgentEvent[] {
  return [
    { ...who, type: 'message_start' },
    ...pieces.map((text): AgentEvent => ({ ...who, type: 'message_delta', text })),
    {
      ...who,
      type: 'message_end',
      message: { role: 'assistant', content: [{ type: 'text', text: pieces.join('') }] },
    },
  ];
}

function streamed(events: AgentEvent[], result: string): string[] {
  const writes: string[] = [];
  const stream = mainTextStream((text) => writes.push(text));
  for (const event of events) stream.event(event);
  stream.finish(result);
  return writes;
}

describe('mainTextStream', () => {
  it('writes each piece of the main agent’s reply as it comes, and ends the line', () => {
    expect(streamed(reply(main, 'Hel', 'lo.'), 'Hello.')).toEqual(['Hel', 'lo.', '\n']);
  });

  it('puts a blank line between replies and leaves sub-agents’ text out', () => {
    const events = [
      ...reply(main, 'Looking.'),
      ...reply(child, 'child text'),
      ...reply(main, 'Done.'),
    ];
    expect(streamed(events, 'Done.').join('')).toBe('Looking.\n\nDone.\n');
  });

  it('keeps a retried reply’s partial text and starts the new attempt on its own paragraph', () => {
    const events: AgentEvent[] = [
      { ...main, type: 'message_start' },
      { ...main, type: 'message_delta', text: 'Half a' },
      { ...main, type: 'retry', attempt: 1, delayMs: 10, error: 'socket hang up' },
      ...reply(main, 'Whole answer.'),
    ];
    expect(streamed(events, 'Whole answer.').join('')).toBe('Half a\n\nWhole answer.\n');
  });

  it('prints the result when no text streamed, and ends a line cut short by a cancel', () => {
    expect(streamed([], 'Report.').join('')).toBe('Report.\n');
    expect(streamed([], '')).toEqual([]);
    const cut: AgentEvent[] = [
      { ...main, type: 'message_start' },
      { ...main, type: 'message_delta', text: 'Stopped mid' },
    ];
    expect(streamed(cut, '').join('')).toBe('Stopped mid\n');
  });
});
