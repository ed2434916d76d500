// How `warren a2a serve` runs an A2A task: the skill the message names (or the only one) runs
// as a warren session on the message's text; its progress goes out as working-status messages,
// its result as an artifact (text, and data when its definition has a schema), then the final
// state. Cancelling a task aborts its run and every child of it.
import { Role, type Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { dataPart, partsText, statusUpdate, textPart } from '../a2a/a2a-parts.js';
import { readPassedBudget } from '../a2a/remote-run-report.js';
import type { RunResult } from '../core/events.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { SESSION_KEY } from './a2a-task-store.js';
import type { AgentHost } from './agent-host.js';
import { ProgressLines } from './event-progress.js';
import { RUN_META_KEY } from './mcp-agent-server.js';
import { resultText, servedReport } from './served-result.js';

/** The message metadata key that names the skill (definition) to run. */
export const SKILL_KEY = 'skillId';

/** The next message of a task's run after a restart of the server cut it. */
const RESUMED_PROMPT =
  'The server running this task restarted while you worked on it; your work so far is above. Go on with the task from where it stopped and finish it.';

/** Where the HTTP layer leaves a caller's `traceparent` header in the call's state. */
export const TRACEPARENT_STATE = 'traceparent';

export class ServedAgentExecutor implements AgentExecutor {
  readonly #host: AgentHost;
  readonly #running = new Map<string, AbortController>();

  constructor(host: AgentHost) {
    this.#host = host;
  }

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const ids = { taskId: context.taskId, contextId: context.contextId };
    const message = context.userMessage;
    if (!context.task) {
      bus.publish(
        AgentEvent.task({
          id: ids.taskId,
          contextId: ids.contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            timestamp: new Date().toISOString(),
            message: undefined,
          },
          artifacts: [],
          history: [message],
          metadata: {},
        }),
      );
    }
    const chosen = this.#definitionFor(message.metadata?.[SKILL_KEY]);
    const prompt = partsText(message.parts).trim();
    if (typeof chosen === 'string' || !prompt) {
      const why =
        typeof chosen === 'string'
          ? chosen
          : 'The message has no text: send the task as a text part.';
      bus.publish(AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_REJECTED, why)));
      return;
    }
    await this.#runTask(
      ids,
      chosen,
      { prompt, metadata: message.metadata, ...traceparentOf(context) },
      bus,
    );
  };

  /**
   * Goes on with a task an earlier server was running when it stopped: its run's session, with
   * a note that the work was cut, as the next message; the caller's message gives the skill,
   * budget and trace. Resubscribed clients see it work and end as any task.
   */
  resume = async (task: Task, sessionId: string, bus: ExecutionEventBus): Promise<void> => {
    const ids = { taskId: task.id, contextId: task.contextId };
    const message = task.history.find((entry) => entry.role === Role.ROLE_USER);
    const chosen = message ? this.#definitionFor(message.metadata?.[SKILL_KEY]) : 'no message';
    if (!message || typeof chosen === 'string') {
      const why = `warren a2a serve stopped while this task ran and cannot go on with it (${typeof chosen === 'string' ? chosen : ''}); send the message again to run it anew.`;
      bus.publish(AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_FAILED, why)));
      return;
    }
    const traceparent = message.metadata?.traceparent;
    await this.#runTask(
      ids,
      chosen,
      {
        prompt: RESUMED_PROMPT,
        metadata: message.metadata,
        resume: sessionId,
        ...(typeof traceparent === 'string' ? { traceparent } : {}),
      },
      bus,
    );
  };

  async #runTask(
    ids: { taskId: string; contextId: string },
    chosen: AgentDefinition,
    work: {
      prompt: string;
      metadata: Record<string, unknown> | undefined;
      traceparent?: string;
      resume?: string;
    },
    bus: ExecutionEventBus,
  ): Promise<void> {
    const controller = new AbortController();
    this.#running.set(ids.taskId, controller);
    const working = (text?: string, metadata?: Record<string, unknown>) =>
      bus.publish(
        AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_WORKING, text, metadata)),
      );
    working(
      work.resume ? 'warren a2a serve restarted; the task goes on where it stopped.' : undefined,
    );
    const lines = new ProgressLines();
    try {
      const result = await this.#host.run({
        agent: chosen.name,
        prompt: work.prompt,
        signal: controller.signal,
        budget: budgetOf(work.metadata),
        ...(work.traceparent ? { traceparent: work.traceparent } : {}),
        ...(work.resume ? { resume: work.resume } : {}),
        // Kept in the task's record: a restarted server goes on in this session.
        onSession: (sessionId) => working(undefined, { [SESSION_KEY]: sessionId }),
        onEvent: (event) => {
          const line = lines.line(event);
          if (line) working(line);
        },
      });
      const structured = chosen.outputSchema !== undefined && result.structuredOutput !== undefined;
      bus.publish(
        AgentEvent.artifactUpdate({
          ...ids,
          artifact: {
            artifactId: 'result',
            name: 'result',
            description: `The ${chosen.name} agent's result`,
            parts: [
              textPart(resultText(result)),
              ...(structured ? [dataPart(result.structuredOutput)] : []),
            ],
            metadata: {},
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: {},
        }),
      );
      bus.publish(
        AgentEvent.statusUpdate(
          statusUpdate(ids, finalState(result), resultText(result), {
            [RUN_META_KEY]: servedReport(result),
          }),
        ),
      );
    } finally {
      this.#running.delete(ids.taskId);
    }
  }

  cancelTask = async (taskId: string): Promise<void> => {
    // The run ends `cancelled`, and `execute` reports it as the task's final state.
    this.#running.get(taskId)?.abort();
  };

  #definitionFor(skill: unknown): AgentDefinition | string {
    const { definitions } = this.#host;
    const names = definitions.map((definition) => definition.name).join(', ');
    if (skill === undefined && definitions.length === 1) return definitions[0]!;
    if (skill === undefined)
      return `Name the agent to run in the message metadata as "${SKILL_KEY}": one of ${names}.`;
    const found = definitions.find((definition) => definition.name === skill);
    return found ?? `No skill "${String(skill)}" here; skills: ${names}.`;
  }
}

/** The caller's trace context: its `traceparent` header, else the message's metadata. */
function traceparentOf(context: RequestContext): { traceparent?: string } {
  const value =
    context.context.state.get(TRACEPARENT_STATE) ?? context.userMessage.metadata?.traceparent;
  return typeof value === 'string' ? { traceparent: value } : {};
}

/** The caller's budget as this run's limits; a deadline already past leaves a millisecond. */
function budgetOf(metadata: Record<string, unknown> | undefined) {
  const passed = readPassedBudget(metadata);
  return {
    ...(passed.deadline === undefined
      ? {}
      : { timeBudgetMs: Math.max(1, passed.deadline - Date.now()) }),
    ...(passed.tokens === undefined ? {} : { tokenBudget: Math.max(1, passed.tokens) }),
  };
}

function finalState(result: RunResult): TaskState {
  if (result.status === 'completed') return TaskState.TASK_STATE_COMPLETED;
  if (result.status === 'cancelled') return TaskState.TASK_STATE_CANCELED;
  return TaskState.TASK_STATE_FAILED;
}
