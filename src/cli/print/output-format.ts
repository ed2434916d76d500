// How print mode shows a run: the final text, one JSON object, or one JSON line per event.
import type { AgentEvent, AgentEventOf } from '../../core/events.js';
import { formatSeconds } from '../../model/request-timeout.js';
import { TodoLists } from '../../telemetry/todo-lists.js';
import { terminalSafe } from '../terminal-text.js';
import { denialReport } from './denial-report.js';
import { mainTextStream } from './main-text-stream.js';
import { usageJson } from './result-json.js';
import { VerboseProgress } from './verbose-progress.js';

export interface OutputSink {
  /** Called for every event, after its transcript line is on disk. */
  event(event: AgentEvent): void;
  /** Called once, with the JSON result object of the run. */
  finish(result: { result: string; is_error: boolean; error?: string }): void;
}

export interface OutputOptions {
  sessionId: string;
  permissionMode: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Text format only: report progress on stderr. */
  verbose: boolean;
  /** Text format: stderr is a terminal, so a person can be told the session id to go on with. */
  stderrIsTerminal?: boolean;
}

/** Warnings go to stderr in every format: one line each, for the person at the terminal. */
function warningLine(event: AgentEvent, options: OutputOptions): void {
  if (event.type === 'warning') options.stderr(`warren: warning: ${event.message}\n`);
}

/** The main agent's text on stdout as it arrives; denials (and with --verbose, progress) on stderr. */
export function textOutput(options: OutputOptions): OutputSink {
  const text = mainTextStream(options.stdout);
  const denials = denialReport(options.stderr);
  const progress = new VerboseProgress();
  return {
    event(event) {
      warningLine(event, options);
      text.event(event);
      denials.event(event);
      if (options.verbose) {
        // The session id first: what `warren usage`, `report` and `--resume` take.
        if (event.type === 'run_start' && event.depth === 0) {
          options.stderr(`session ${options.sessionId}\n`);
        }
        for (const line of progress.lines(event)) options.stderr(`${line}\n`);
      } else if (event.type === 'retry') {
        // A model call that fails and waits is never silent: one line per retry.
        const wait = formatSeconds(Math.round(event.delayMs));
        const line = `warren: ${event.error}; retry ${event.attempt} in ${wait}`;
        options.stderr(`${terminalSafe(line)}\n`);
      }
    },
    finish(result) {
      text.finish(result.result);
      denials.finish();
      if (result.is_error && result.error) options.stderr(`warren: ${result.error}\n`);
      if (options.stderrIsTerminal && !options.verbose) {
        options.stderr(
          `warren: session ${options.sessionId} (go on with warren --resume ${options.sessionId})\n`,
        );
      }
    },
  };
}

export function jsonOutput(options: OutputOptions): OutputSink {
  return {
    event(event) {
      warningLine(event, options);
    },
    finish(result) {
      options.stdout(`${JSON.stringify(result)}\n`);
    },
  };
}

export function streamJsonOutput(options: OutputOptions): OutputSink {
  const line = (value: object) => options.stdout(`${JSON.stringify(value)}\n`);
  const todoLists = new TodoLists();
  return {
    event(event) {
      warningLine(event, options);
      const value = streamJsonLine(event, options);
      if (value) line(value);
      // After the TodoWrite call's tool_result: a list the agent changed, whole.
      const todos = todoLists.observe(event);
      if (todos) {
        const who = { agent_id: event.agentId, parent_id: event.parentId, depth: event.depth };
        line({ type: 'todos', ...who, todos: todos.todos });
      }
    },
    finish(result) {
      line(result);
    },
  };
}

function streamJsonLine(event: AgentEvent, options: OutputOptions): object | undefined {
  const who = { agent_id: event.agentId, parent_id: event.parentId, depth: event.depth };
  switch (event.type) {
    case 'run_start':
      if (event.depth === 0) {
        return {
          type: 'system',
          subtype: 'init',
          session_id: options.sessionId,
          ...who,
          model: event.model,
          tools: event.tools,
          cwd: event.cwd,
          permission_mode: options.permissionMode,
        };
      }
      return {
        type: 'agent_start',
        ...who,
        agent_type: event.agentType,
        description: event.description,
        model: event.model,
        tools: event.tools,
      };
    case 'message_delta':
      return { type: 'assistant_delta', ...who, text: event.text };
    case 'message_end':
      if (event.message.role !== 'assistant') return undefined;
      return { type: 'assistant', ...who, message: event.message };
    case 'tool_end':
      return {
        type: 'tool_result',
        ...who,
        tool_use_id: event.toolCallId,
        tool_name: event.toolName,
        content: event.output,
        is_error: event.isError,
        duration_ms: event.durationMs,
      };
    case 'warning':
      return { type: 'system', subtype: 'warning', ...who, message: event.message };
    case 'retry':
      return {
        type: 'system',
        subtype: 'api_retry',
        ...who,
        attempt: event.attempt,
        delay_ms: event.delayMs,
        error: event.error,
      };
    case 'task_started':
    case 'task_progress':
    case 'task_notification':
      return taskLine(event, who);
    case 'worktree':
      return {
        type: 'worktree',
        subtype: event.action,
        ...who,
        path: event.path,
        branch: event.branch,
        changed: event.changed,
        ...(event.diffStat ? { diff_stat: event.diffStat } : {}),
      };
    case 'result':
      if (event.depth === 0) return undefined;
      return {
        type: 'agent_end',
        ...who,
        agent_type: event.agentType,
        status: event.status,
        is_error: event.isError,
        result: event.result,
        ...(event.error ? { error: event.error } : {}),
        num_turns: event.numTurns,
        tool_calls: event.toolCalls,
        usage: usageJson(event.usage),
        cost_usd: event.costUsd,
        duration_ms: event.durationMs,
      };
    default:
      return undefined;
  }
}

/** A task event as a stream-json line; it belongs to the agent that started the task. */
function taskLine(
  event: AgentEventOf<'task_started' | 'task_progress' | 'task_notification'>,
  who: object,
): object {
  const task = {
    type: event.type,
    ...who,
    task_id: event.taskId,
    task_type: event.kind,
    task_agent_id: event.taskAgentId,
    description: event.description,
    name: event.name,
    status: event.status,
  };
  if (event.type === 'task_started') return task;
  if (event.type === 'task_progress') {
    const { progress } = event;
    return {
      ...task,
      progress: {
        turns: progress.turns,
        tool_calls: progress.toolCalls,
        tokens: progress.tokens,
        last_activity_at: progress.lastActivityAt,
        last_tool: progress.lastToolName,
      },
    };
  }
  return {
    ...task,
    agent_status: event.agentStatus,
    result: event.result,
    ...(event.error ? { error: event.error } : {}),
    usage: event.usage ? usageJson(event.usage) : null,
    cost_usd: event.costUsd,
    output_file: event.resultPath,
    duration_ms: event.durationMs,
  };
}
