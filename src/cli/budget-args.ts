// The budget flags beside `--time-budget` and `--token-budget`: `--max-budget-usd` (Claude
// Code's name for a cost cap) and `--pause-at-budget`, which makes a spent token or cost budget
// pause the run (resumable with a larger one) instead of ending it with a report.
import { ConfigError } from '../core/config-error.js';

export const BUDGET_OPTIONS = {
  'max-budget-usd': { type: 'string' },
  'pause-at-budget': { type: 'boolean' },
} as const;

export interface BudgetArgs {
  /** The whole run's cost cap in US dollars (models with a known price). */
  maxBudgetUsd?: number;
  /** A spent token or cost budget pauses the run instead of ending it. */
  pauseAtBudget?: boolean;
}

export function budgetArgs(values: {
  'max-budget-usd'?: string;
  'pause-at-budget'?: boolean;
  'token-budget'?: string;
}): BudgetArgs {
  const usd = values['max-budget-usd'];
  const maxBudgetUsd = usd === undefined ? undefined : dollars(usd);
  const pause = values['pause-at-budget'] === true;
  if (pause && maxBudgetUsd === undefined && values['token-budget'] === undefined) {
    throw new ConfigError(
      '--pause-at-budget',
      'has no budget to pause at',
      'give --token-budget <n> or --max-budget-usd <dollars> with it',
    );
  }
  return {
    ...(maxBudgetUsd !== undefined && { maxBudgetUsd }),
    ...(pause && { pauseAtBudget: true }),
  };
}

function dollars(value: string): number {
  const amount = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(amount > 0)) {
    throw new ConfigError(
      '--max-budget-usd',
      `expected an amount of dollars above 0, got "${value}"`,
      'e.g. --max-budget-usd 2.50',
    );
  }
  return amount;
}
