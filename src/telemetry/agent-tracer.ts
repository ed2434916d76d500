// OpenTelemetry spans from the event stream, after the GenAI semantic conventions: a span per
// agent (`invoke_agent`), per model call (`chat`), per tool call (`execute_tool`), and per
// workflow run and item (workflow-spans.ts). A reader of events like any other, so the loop
// knows nothing of tracing; a child's agent span hangs under the tool call that started it (a
// workflow item's, under its item), whenever and from wherever its events arrive.
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { AgentEvent, AgentEventOf } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Usage } from '../core/usage.js';
import type { WorkflowEvent } from '../core/workflow-events.js';
import type { AgentTraceContexts } from './agent-trace-contexts.js';
import { remoteParentContext } from './remote-parent.js';
import { serverAttributes } from './server-address.js';
import { WorkflowSpans } from './workflow-spans.js';

/** The attribute names of the GenAI semantic conventions that warren sets. */
const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentId: 'gen_ai.agent.id',
  agentName: 'gen_ai.agent.name',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
} as const;

export interface AgentTracerOptions {
  /**
   * Record prompts, replies, tool arguments and results on the spans. Off by default: they may
   * hold code, secrets and personal data. The CLI turns it on with `WARREN_OTEL_LOG_CONTENT=1`.
   */
  logContent?: boolean;
  /**
   * The session the run belongs to, as `session.id` and `gen_ai.conversation.id` on every agent
   * span: each run is its own trace (a `--resume` starts a new one), and this finds a session's
   * traces together (Phoenix groups them as one session).
   */
  sessionId?: string;
  /** A caller's W3C traceparent: the main agent's span continues that trace (remote-parent.ts). */
  traceparent?: string;
  /** The `--base-url` of openai-compatible models, for chat spans' `server.address`. */
  baseUrl?: string;
  /** Told every agent span started, for children in other processes to continue it. */
  contexts?: AgentTraceContexts;
}

interface AgentSpans {
  span: Span;
  context: Context;
  model: string;
  /** The model call in progress. */
  chat?: Span;
  /** The conversation so far; kept only when content is logged. */
  messages?: Message[];
}

/** Turns a run's events into spans; feed it every event, in stream order. */
export class AgentTracer {
  readonly #tracer: Tracer;
  readonly #logContent: boolean;
  readonly #sessionId: string | undefined;
  /** Where a main agent's span hangs: a caller's span, or nothing (a trace of its own). */
  readonly #root: Context;
  readonly #baseUrl: string | undefined;
  readonly #contexts: AgentTraceContexts | undefined;
  readonly #agents = new Map<string, AgentSpans>();
  /** Open tool spans by agent and call id. */
  readonly #tools = new Map<string, Span>();
  /**
   * The context of every tool call seen, so a child whose `run_start` arrives after its tool
   * call ended (a background child) still hangs under it. A few dozen bytes a call.
   */
  readonly #toolContexts = new Map<string, Context>();
  /** Each agent's latest Workflow call: where the run it starts hangs. */
  readonly #workflowCalls = new Map<string, Context>();
  readonly #workflows: WorkflowSpans;

  constructor(tracer: Tracer, options: AgentTracerOptions = {}) {
    this.#tracer = tracer;
    this.#logContent = options.logContent === true;
    this.#sessionId = options.sessionId;
    this.#root = remoteParentContext(options.traceparent) ?? ROOT_CONTEXT;
    this.#baseUrl = options.baseUrl;
    this.#contexts = options.contexts;
    this.#workflows = new WorkflowSpans(tracer);
  }

  observe(event: AgentEvent): void {
    if (event.type.startsWith('workflow_')) {
      const workflowEvent = event as AgentEvent & WorkflowEvent;
      this.#workflows.observe(
        workflowEvent,
        () =>
          this.#workflowCalls.get(event.agentId) ??
          this.#agents.get(event.agentId)?.context ??
          this.#root,
      );
      return;
    }
    switch (event.type) {
      case 'run_start':
        this.#startAgent(event);
        return;
      case 'turn_start':
        this.#startChat(event);
        return;
      case 'retry':
        this.#agents.get(event.agentId)?.chat?.addEvent('retry', {
          'warren.retry.attempt': event.attempt,
          'warren.retry.delay_ms': event.delayMs,
          [GEN_AI.errorType]: event.error,
        });
        return;
      case 'usage':
        this.#agents.get(event.agentId)?.chat?.setAttributes({
          ...usageAttributes(event.usage),
          [GEN_AI.finishReasons]: [event.finishReason],
          [GEN_AI.responseModel]: event.responseModel,
          [GEN_AI.responseId]: event.responseId,
          'warren.cost_usd': event.costUsd ?? undefined,
        });
        return;
      case 'message_end':
        this.#message(event);
        return;
      case 'tool_start':
        this.#startTool(event);
        return;
      case 'tool_end':
        this.#endTool(event);
        return;
      case 'result':
        this.#endAgent(event);
        return;
      default:
        return;
    }
  }

  /** Ends every span still open (a run cut short); call before flushing. */
  endAll(): void {
    this.#contexts?.close();
    this.#workflows.endAll();
    for (const span of this.#tools.values()) span.end();
    this.#tools.clear();
    for (const agent of this.#agents.values()) {
      agent.chat?.end();
      agent.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the run ended first' });
      agent.span.end();
    }
    this.#agents.clear();
  }

  #startAgent(event: AgentEventOf<'run_start'>): void {
    // An agent continued (a message to a finished agent, a resume) gets a new span.
    this.#endAgent(undefined, event.agentId);
    const parent =
      this.#workflows.parentOfAgent(event.agentId) ??
      (event.parentToolCallId === undefined
        ? undefined
        : this.#toolContexts.get(toolKey(event.parentId ?? '', event.parentToolCallId))) ??
      (event.parentId === null ? undefined : this.#agents.get(event.parentId)?.context) ??
      this.#root;
    const span = this.#tracer.startSpan(
      `invoke_agent ${event.agentType}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [GEN_AI.operationName]: 'invoke_agent',
          [GEN_AI.agentId]: event.agentId,
          [GEN_AI.agentName]: event.agentType,
          [GEN_AI.agentDescription]: event.description || undefined,
          [GEN_AI.conversationId]: this.#sessionId,
          'session.id': this.#sessionId,
          ...modelAttributes(event.model),
          'warren.agent.path': event.path,
          'warren.agent.depth': event.depth,
          'warren.agent.parent_id': event.parentId ?? undefined,
          'warren.agent.tools': event.tools,
        },
      },
      parent,
    );
    this.#agents.set(event.agentId, {
      span,
      context: trace.setSpan(ROOT_CONTEXT, span),
      model: event.model,
      messages: this.#logContent ? [] : undefined,
    });
    this.#contexts?.started(event.agentId, span.spanContext());
  }

  #startChat(event: AgentEventOf<'turn_start'>): void {
    const agent = this.#agents.get(event.agentId);
    if (!agent) return;
    agent.chat?.end();
    const { requestModel } = modelParts(agent.model);
    agent.chat = this.#tracer.startSpan(
      `chat ${requestModel}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [GEN_AI.operationName]: 'chat',
          ...modelAttributes(agent.model),
          ...serverAttributes(agent.model, { baseUrl: this.#baseUrl }),
          [GEN_AI.agentId]: event.agentId,
          'warren.turn': event.turn,
          [GEN_AI.inputMessages]: agent.messages && JSON.stringify(agent.messages),
        },
      },
      agent.context,
    );
  }

  /** The reply ends its model call: the `usage` event came just before it. */
  #message(event: AgentEventOf<'message_end'>): void {
    const agent = this.#agents.get(event.agentId);
    if (!agent) return;
    agent.messages?.push(event.message);
    if (event.message.role !== 'assistant' || !agent.chat) return;
    if (this.#logContent) {
      agent.chat.setAttribute(GEN_AI.outputMessages, JSON.stringify([event.message]));
    }
    agent.chat.end();
    agent.chat = undefined;
  }

  #startTool(event: AgentEventOf<'tool_start'>): void {
    const agent = this.#agents.get(event.agentId);
    if (!agent) return;
    const key = toolKey(event.agentId, event.toolCallId);
    const span = this.#tracer.startSpan(
      `execute_tool ${event.toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [GEN_AI.operationName]: 'execute_tool',
          [GEN_AI.toolName]: event.toolName,
          [GEN_AI.toolCallId]: event.toolCallId,
          [GEN_AI.toolType]: 'function',
          [GEN_AI.agentId]: event.agentId,
          [GEN_AI.toolArguments]: this.#logContent ? JSON.stringify(event.input) : undefined,
        },
      },
      agent.context,
    );
    this.#tools.set(key, span);
    this.#toolContexts.set(key, trace.setSpan(ROOT_CONTEXT, span));
    if (event.toolName === 'Workflow') {
      this.#workflowCalls.set(event.agentId, trace.setSpan(ROOT_CONTEXT, span));
    }
  }

  #endTool(event: AgentEventOf<'tool_end'>): void {
    const key = toolKey(event.agentId, event.toolCallId);
    const span = this.#tools.get(key);
    if (!span) return;
    this.#tools.delete(key);
    if (this.#logContent) span.setAttribute(GEN_AI.toolResult, event.output);
    if (event.isError) {
      span.setAttribute(GEN_AI.errorType, 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: firstLine(event.output) });
    }
    span.end();
  }

  #endAgent(event: AgentEventOf<'result'> | undefined, agentId = event?.agentId): void {
    if (agentId === undefined) return;
    const agent = this.#agents.get(agentId);
    if (!agent) return;
    this.#agents.delete(agentId);
    // A model call or tool cut off by the end of the run ends with it.
    if (agent.chat) {
      agent.chat.setStatus({ code: SpanStatusCode.ERROR, message: 'no reply' });
      agent.chat.end();
    }
    for (const [key, span] of this.#tools) {
      if (!key.startsWith(`${agentId}\0`)) continue;
      span.end();
      this.#tools.delete(key);
    }
    if (event) {
      agent.span.setAttributes({
        ...usageAttributes(event.usage),
        'warren.agent.status': event.status,
        'warren.agent.turns': event.numTurns,
        'warren.agent.tool_calls': event.toolCalls,
        'warren.cost_usd': event.costUsd ?? undefined,
      });
      if (event.isError) {
        agent.span.setAttribute(GEN_AI.errorType, event.status);
        agent.span.setStatus({ code: SpanStatusCode.ERROR, message: event.error ?? event.status });
      }
    }
    agent.span.end();
  }
}

function toolKey(agentId: string, toolCallId: string): string {
  return `${agentId}\0${toolCallId}`;
}

/** `anthropic:claude-sonnet-4-5` → provider `anthropic`, request model `claude-sonnet-4-5`. */
function modelParts(model: string): { provider: string; requestModel: string } {
  const colon = model.indexOf(':');
  if (colon === -1) return { provider: model, requestModel: model };
  return { provider: model.slice(0, colon), requestModel: model.slice(colon + 1) };
}

function modelAttributes(model: string): Attributes {
  const { provider, requestModel } = modelParts(model);
  return { [GEN_AI.providerName]: provider, [GEN_AI.requestModel]: requestModel };
}

/**
 * The conventions count cached tokens in `input_tokens` and report them again on their own;
 * warren's `inputTokens` are the uncached ones.
 */
function usageAttributes(usage: Usage): Attributes {
  return {
    [GEN_AI.inputTokens]:
      usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
    [GEN_AI.outputTokens]: usage.outputTokens,
    [GEN_AI.cacheReadTokens]: usage.cacheReadInputTokens,
    [GEN_AI.cacheCreationTokens]: usage.cacheCreationInputTokens,
  };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
