// A child's path names the call that started it by its number among its parent's calls of that
// tool, in the order the model wrote them, however the conversation grew since the last child.
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../core/messages.js';
import { childPath } from './subagent-context.js';

function calls(...ids: string[]): AssistantMessage {
  return {
    role: 'assistant',
    content: ids.map((id) => ({
      type: 'tool-call',
      toolCallId: id,
      toolName: id.startsWith('r') ? 'Read' : 'Agent',
      input: {},
    })),
  };
}

describe('childPath', () => {
  it('numbers each call among the calls of its tool, across turns', () => {
    const messages: Message[] = [{ role: 'user', content: 'go' }, calls('a1', 'r1', 'a2')];

    expect(childPath('main', messages, 'a2', 'explore')).toBe('main/Agent#2/explore');
    expect(childPath('main', messages, 'a1', 'explore')).toBe('main/Agent#1/explore');

    messages.push({ role: 'user', content: 'more' }, calls('r2', 'a3'));

    expect(childPath('main', messages, 'a3', 'plan/deep')).toBe('main/Agent#3/plan_deep');
  });

  it('sees calls added to the last message after an earlier child was named', () => {
    const last = calls('a1');
    const messages: Message[] = [last];
    expect(childPath('main', messages, 'a1', 'x')).toBe('main/Agent#1/x');

    last.content.push({ type: 'tool-call', toolCallId: 'a2', toolName: 'Agent', input: {} });

    expect(childPath('main', messages, 'a2', 'x')).toBe('main/Agent#2/x');
  });

  it('names a repeated id by its latest call, and an unknown one by its id', () => {
    const messages: Message[] = [calls('a1'), calls('a1')];

    expect(childPath('main', messages, 'a1', 'x')).toBe('main/Agent#2/x');
    expect(childPath('main', messages, 'zz', 'x')).toBe('main/zz/x');
  });
});
