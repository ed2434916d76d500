// What a remote A2A agent says of its own run (warren's `warren/run` status metadata: usage,
// cost, turns), read as hostile input: only well-formed, non-negative numbers are believed.
import { z } from 'zod';
import type { Usage } from '../core/usage.js';

/** The metadata key of a served run's report (`warren a2a serve` and `warren mcp serve` set it). */
export const RUN_REPORT_KEY = 'warren/run';

/** The metadata key of the budget a caller passes on: what the remote run may still spend. */
export const BUDGET_KEY = 'warren/budget';

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const reportSchema = z.object({
  numTurns: count.catch(0),
  toolCalls: count.catch(0),
  usage: z
    .object({
      inputTokens: count,
      outputTokens: count,
      cacheReadInputTokens: count,
      cacheCreationInputTokens: count,
    })
    .optional()
    .catch(undefined),
  costUsd: z.number().nonnegative().finite().nullable().catch(null),
});

export interface RemoteRunReport {
  numTurns: number;
  toolCalls: number;
  usage?: Usage;
  costUsd: number | null;
}

export function readRunReport(
  metadata: Record<string, unknown> | undefined,
): RemoteRunReport | undefined {
  const parsed = reportSchema.safeParse(metadata?.[RUN_REPORT_KEY]);
  return parsed.success ? parsed.data : undefined;
}

/** What a caller may pass on of its budget; both optional. */
export interface PassedBudget {
  /** Epoch ms by which the run must end. */
  deadline?: number;
  tokens?: number;
}

const budgetSchema = z.object({
  deadline: z.number().int().positive().optional().catch(undefined),
  tokens: count.optional().catch(undefined),
});

export function readPassedBudget(metadata: Record<string, unknown> | undefined): PassedBudget {
  const parsed = budgetSchema.safeParse(metadata?.[BUDGET_KEY]);
  return parsed.success ? parsed.data : {};
}
