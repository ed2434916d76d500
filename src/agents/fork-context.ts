// What a forked child starts from (`forkContext: true` or a number of turns): its parent's
// conversation as the parent's model last saw it, cut to the last N turns, with every tool call
// that has no result yet left out; and the message that hands the conversation to the child.

import type { Message } from '../core/messages.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';

/** `false`: a fresh conversation; `true`: the whole of the parent's; N: its last N turns. */
export type ForkContext = boolean | number;

/** How much of the parent's conversation a child gets: none, all, or a number of turns. */
export function forkedTurns(fork: ForkContext | undefined): number | 'all' | undefined {
  if (fork === true) return 'all';
  if (typeof fork === 'number' && fork >= 1) return Math.floor(fork);
  return undefined;
}

/**
 * The parent's conversation for a forked child. A turn is a user message (a prompt, not tool
 * results) and everything after it up to the next user message; the turn the parent is in now
 * counts as one. The parent's system messages come first, as they are: the child continues
 * under the parent's system prompt, so its first request repeats the parent's last one and reads
 * it from the prompt cache. Every tool call still waiting for its result (the call starting this
 * child among them) is left out, since a provider refuses a call without a result; an assistant
 * message left with nothing is dropped.
 */
export function forkMessages(messages: readonly Message[], turns: number | 'all'): Message[] {
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool') for (const part of message.content) answered.add(part.toolCallId);
  }
  const system = messages.filter((message) => message.role === 'system');
  const conversation = messages.filter((message) => message.role !== 'system');
  const forked: Message[] = [...system];
  for (const message of conversation.slice(startOfTurns(conversation, turns))) {
    if (message.role !== 'assistant') {
      forked.push(message);
      continue;
    }
    const content = message.content.filter(
      (part) => part.type === 'text' || answered.has(part.toolCallId),
    );
    if (content.length === message.content.length) forked.push(message);
    else if (content.length > 0) forked.push({ role: 'assistant', content });
  }
  return forked;
}

/** Where the last `turns` turns start: at the Nth user message from the end (or the start). */
function startOfTurns(conversation: readonly Message[], turns: number | 'all'): number {
  if (turns === 'all') return 0;
  let seen = 0;
  for (let i = conversation.length - 1; i >= 0; i--) {
    if (conversation[i]!.role === 'user' && ++seen === turns) return i;
  }
  return 0;
}

/** Where a forked child works when that is not where its parent does: its own worktree. */
export interface ForkedWorkspace {
  cwd: string;
  /** What a fresh child's system prompt would say about the worktree. */
  promptNote: string;
}

/**
 * The first message of a forked child. Its system prompt stays the parent's, for the cache, so
 * what its own would have said comes here: its definition's prompt, the project's sections the
 * parent's prompt lacks (its memory, its preloaded skills, instructions its parent omits), and
 * its working directory when that is a worktree of its own; then its task. Without it the child
 * would take the conversation for its own and go on with the parent's work.
 */
export function forkDirective(params: {
  definition: AgentDefinition;
  task: string;
  /** The project's sections the child's own system prompt would hold, in order. */
  sections?: readonly string[];
  /** The system prompt the child keeps (its parent's): a section it holds is not repeated. */
  systemPrompt?: string;
  workspace?: ForkedWorkspace;
}): string {
  const { definition, workspace } = params;
  const instructions = definition.prompt.trim();
  const sections = (params.sections ?? [])
    .map((section) => section.trim())
    .filter((section) => section !== '' && !params.systemPrompt?.includes(section));
  return [
    `[You are now a sub-agent of type "${definition.name}", forked from the conversation above: it is context, not your task. The agent that started you sees only your final message.]`,
    ...(instructions ? [`Your instructions:\n${instructions}`] : []),
    ...sections,
    ...(workspace
      ? [
          `Your working directory is ${workspace.cwd}, not the one the system prompt names.\n\n${workspace.promptNote}`,
        ]
      : []),
    `Your task:\n${params.task.trim()}`,
  ].join('\n\n');
}
