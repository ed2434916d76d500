// Spans of workflow runs, from their `workflow_*` events: one `workflow <name>` span per run
// (its run id, status, reason, spent tokens and item counts) under the Workflow call that started
// it, and one `workflow_item <label>` span per item (its key, occurrence, label and status) under
// that, with the item's agent span below it. Part of AgentTracer, which hands it these events.
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { AgentEvent } from '../core/events.js';
import type { ItemEventStatus, WorkflowEvent } from '../core/workflow-events.js';

type Ended = Exclude<ItemEventStatus, 'running' | 'blocked'>;

interface RunSpans {
  span: Span;
  context: Context;
  /** Open item spans by `key#occurrence`. */
  items: Map<string, Span>;
  /** How many items ended each way (`cached`: returned from the journal). */
  counts: Record<Ended, number>;
}

export class WorkflowSpans {
  readonly #tracer: Tracer;
  readonly #runs = new Map<string, RunSpans>();
  /** The item span an item's agent hangs under, by the agent's id. */
  readonly #itemOfAgent = new Map<string, Context>();

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /** The context an item's agent span starts in, when the agent is a workflow item. */
  parentOfAgent(agentId: string): Context | undefined {
    return this.#itemOfAgent.get(agentId);
  }

  /** @param parent where the run's span hangs: its Workflow call, else its caller's span. */
  observe(event: AgentEvent & WorkflowEvent, parent: () => Context): void {
    switch (event.type) {
      case 'workflow_start': {
        const span = this.#tracer.startSpan(
          `workflow ${event.name}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              'warren.workflow.run_id': event.runId,
              'warren.workflow.name': event.name,
              'warren.workflow.resumed': event.resumed,
              'gen_ai.agent.id': event.agentId,
            },
          },
          parent(),
        );
        this.#runs.set(event.runId, {
          span,
          context: trace.setSpan(ROOT_CONTEXT, span),
          items: new Map(),
          counts: { completed: 0, failed: 0, no_progress: 0, paused: 0, cached: 0 },
        });
        return;
      }
      case 'workflow_phase':
        this.#runs
          .get(event.runId)
          ?.span.addEvent('phase', { 'warren.workflow.phase': event.title });
        return;
      case 'workflow_warning':
        this.#runs.get(event.runId)?.span.addEvent('warning', { message: event.message });
        return;
      case 'workflow_item':
        this.#item(event);
        return;
      case 'workflow_end':
        this.#end(event);
        return;
      default:
        return;
    }
  }

  /** Ends every span still open (a run cut short). */
  endAll(): void {
    for (const run of this.#runs.values()) {
      for (const item of run.items.values()) item.end();
      run.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the run ended first' });
      run.span.end();
    }
    this.#runs.clear();
    this.#itemOfAgent.clear();
  }

  #item(event: Extract<WorkflowEvent, { type: 'workflow_item' }>): void {
    const run = this.#runs.get(event.runId);
    if (!run) return;
    const slot = `${event.key}#${event.occurrence}`;
    let span = run.items.get(slot);
    if (!span) {
      span = this.#tracer.startSpan(
        `workflow_item ${event.label}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            'warren.workflow.run_id': event.runId,
            'warren.workflow.item.key': event.key,
            'warren.workflow.item.occurrence': event.occurrence,
            'warren.workflow.item.label': event.label,
          },
        },
        run.context,
      );
      run.items.set(slot, span);
    }
    if (event.itemAgentId) {
      span.setAttribute('warren.workflow.item.agent_id', event.itemAgentId);
      this.#itemOfAgent.set(event.itemAgentId, trace.setSpan(ROOT_CONTEXT, span));
    }
    if (event.status === 'running') return;
    if (event.status === 'blocked') {
      span.addEvent('blocked', { 'warren.workflow.item.blocked_on': event.blockedOn ?? '' });
      return;
    }
    run.counts[event.status]++;
    span.setAttribute('warren.workflow.item.status', event.status);
    if (event.error) span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
    span.end();
    run.items.delete(slot);
  }

  #end(event: Extract<WorkflowEvent, { type: 'workflow_end' }>): void {
    const run = this.#runs.get(event.runId);
    if (!run) return;
    this.#runs.delete(event.runId);
    for (const item of run.items.values()) item.end();
    const { completed, failed, no_progress, paused, cached } = run.counts;
    run.span.setAttributes({
      'warren.workflow.status': event.status,
      'warren.workflow.reason': event.reason,
      'warren.workflow.spent_tokens': event.spentTokens,
      'warren.workflow.items.completed': completed + cached,
      'warren.workflow.items.from_journal': cached,
      'warren.workflow.items.failed': failed,
      'warren.workflow.items.no_progress': no_progress,
      'warren.workflow.items.paused': paused,
      'warren.workflow.items.total': completed + cached + failed + no_progress + paused,
    });
    if (event.status === 'failed' || event.status === 'paused') {
      run.span.setStatus({ code: SpanStatusCode.ERROR, message: event.reason ?? event.status });
    }
    run.span.end();
  }
}
