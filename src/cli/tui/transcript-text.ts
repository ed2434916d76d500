// A child's transcript as text for the conversation (`/tasks open`): its task, what it wrote,
// one line per tool call with the first line of its result. Read from the sidechain file, so a
// running child's transcript shows what it has done so far.
import { existsSync } from 'node:fs';
import type { Message } from '../../core/messages.js';
import { readTranscript } from '../../session/read-transcript.js';
import { callSummary } from './call-summary.js';

/** Lines of a result shown under its call, at most. */
const RESULT_LINES = 1;

export function transcriptText(path: string, cwd: string): string {
  if (!existsSync(path)) return `No transcript yet at ${path}.`;
  const { messages } = readTranscript(path);
  const lines = messages.flatMap((message) => messageLines(message, cwd));
  return [...lines, '', `Transcript: ${path}`].join('\n');
}

function messageLines(message: Message, cwd: string): string[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      return [`❯ ${message.content}`];
    case 'assistant':
      return message.content.flatMap((part) => {
        if (part.type === 'text') return part.text.trim() ? [part.text.trim()] : [];
        if (part.type === 'tool-call') return [`→ ${callSummary(part.toolName, part.input, cwd)}`];
        return [];
      });
    case 'tool':
      return message.content.flatMap((part) => {
        const first = part.output.split('\n').slice(0, RESULT_LINES).join(' ').trim();
        return [`  ⎿ ${part.isError ? 'error: ' : ''}${first}`];
      });
  }
}
