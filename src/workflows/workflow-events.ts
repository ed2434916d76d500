// The words of a workflow's events live in core (core/workflow-events.ts), so the AgentEvent
// union can carry them; the workflow modules and their CLI read them from here.
export type { ItemEventStatus, WorkflowEvent } from '../core/workflow-events.js';
