// A served run's result as a protocol hands it back: its text, its structured value when its
// definition has an output schema, and the usage a caller may add to its own tree.

import type { RunResult } from '../core/events.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { compileOutputSchema } from '../definitions/output-schema.js';

/** What a caller is told of a run besides its output: enough to roll it into its own tree. */
export interface ServedRunReport {
  sessionId: string;
  agentType: string;
  status: RunResult['status'];
  numTurns: number;
  toolCalls: number;
  durationMs: number;
  usage: RunResult['usage'];
  costUsd: number | null;
}

export function servedReport(result: RunResult & { sessionId: string }): ServedRunReport {
  return {
    sessionId: result.sessionId,
    agentType: result.agentType,
    status: result.status,
    numTurns: result.numTurns,
    toolCalls: result.toolCalls,
    durationMs: result.durationMs,
    usage: result.usage,
    costUsd: result.costUsd,
  };
}

/** The text a caller reads: the result, or why the run did not succeed. */
export function resultText(result: RunResult): string {
  if (!result.isError) return result.result;
  return `The ${result.agentType} agent ${result.status}: ${result.error ?? 'no reason given'}`;
}

/** The JSON Schema of a definition's structured result; undefined when it has none. */
export function outputJsonSchema(
  definition: AgentDefinition,
): Readonly<Record<string, unknown>> | undefined {
  return definition.outputSchema === undefined
    ? undefined
    : compileOutputSchema(definition.outputSchema).jsonSchema;
}
