// An ACP child's session updates as the child's own events in warren's tree: its message chunks
// as text deltas, its tool calls as tool_start/tool_end, its plan as a TodoWrite; so the
// transcript, the trace, `agents[]` and every host show it as they show any child.
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent, AgentRef } from '../core/events.js';

type Emit = (event: AgentEvent) => void;

export class ChildEvents {
  readonly #ref: AgentRef;
  readonly #emit: Emit;
  /** Started and not yet ended: id → name and when it started. */
  readonly #open = new Map<string, { toolName: string; started: number }>();
  /** Ended already: a late or repeated update of them is not a new call. */
  readonly #ended = new Set<string>();
  #plans = 0;
  text = '';
  toolCalls = 0;
  /** What the agent said it cost in USD (`usage_update`); null when it never said. */
  costUsd: number | null = null;
  readonly #onCost: (deltaUsd: number) => void;

  constructor(ref: AgentRef, emit: Emit, onCost: (deltaUsd: number) => void = () => {}) {
    this.#ref = ref;
    this.#emit = emit;
    this.#onCost = onCost;
  }

  apply(update: SessionUpdate): void {
    const ref = this.#ref;
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') {
          this.text += update.content.text;
          this.#emit({ ...ref, type: 'message_delta', text: update.content.text });
        }
        return;
      case 'tool_call':
        this.#start(update.toolCallId, update.title || update.kind || 'tool', update.rawInput);
        if (update.status === 'completed' || update.status === 'failed') {
          this.#end(update.toolCallId, update.status === 'failed', outputOf(update.content));
        }
        return;
      case 'tool_call_update':
        if (
          !this.#open.has(update.toolCallId) &&
          update.status !== 'completed' &&
          update.status !== 'failed'
        ) {
          return;
        }
        if (update.status === 'completed' || update.status === 'failed') {
          if (!this.#open.has(update.toolCallId)) {
            this.#start(update.toolCallId, update.title || update.kind || 'tool', update.rawInput);
          }
          this.#end(
            update.toolCallId,
            update.status === 'failed',
            outputOf(update.content ?? undefined),
          );
        }
        return;
      case 'usage_update': {
        // The running total of the session; only dollars can be added to warren's costs.
        const cost = update.cost;
        if (cost?.currency !== 'USD' || !Number.isFinite(cost.amount) || cost.amount < 0) return;
        const delta = cost.amount - (this.costUsd ?? 0);
        this.costUsd = cost.amount;
        if (delta > 0) this.#onCost(delta);
        return;
      }
      case 'plan': {
        const id = `plan-${++this.#plans}`;
        const todos = update.entries.map((entry) => ({
          content: entry.content,
          status: entry.status,
        }));
        this.#start(id, 'TodoWrite', { todos });
        this.#end(id, false, 'Task list updated.');
        return;
      }
      default:
        return;
    }
  }

  /** Calls still open when the child stopped: ended as failed, so none is left hanging. */
  endOpen(reason: string): void {
    for (const id of [...this.#open.keys()]) this.#end(id, true, reason);
  }

  #start(toolCallId: string, toolName: string, input: unknown): void {
    if (this.#open.has(toolCallId) || this.#ended.has(toolCallId)) return;
    this.toolCalls++;
    this.#open.set(toolCallId, { toolName, started: Date.now() });
    this.#emit({ ...this.#ref, type: 'tool_start', toolCallId, toolName, input: input ?? {} });
  }

  #end(toolCallId: string, isError: boolean, output: string): void {
    const call = this.#open.get(toolCallId);
    if (!call) return;
    this.#open.delete(toolCallId);
    this.#ended.add(toolCallId);
    this.#emit({
      ...this.#ref,
      type: 'tool_end',
      toolCallId,
      toolName: call.toolName,
      output,
      isError,
      durationMs: Date.now() - call.started,
    });
  }
}

/** The text of a tool call's content: its text blocks, and each diff as the file it changed. */
function outputOf(content: readonly ToolCallContent[] | undefined): string {
  const parts: string[] = [];
  for (const item of content ?? []) {
    if (item.type === 'content' && item.content.type === 'text') parts.push(item.content.text);
    else if (item.type === 'diff') parts.push(`changed ${item.path}`);
  }
  return parts.join('\n');
}
