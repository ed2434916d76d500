// What a remote agent reports of its run is hostile input: whatever it sends, the parent's tree
// only ever adds well-formed, non-negative counts, and a budget it passes on is numbers or nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUDGET_KEY,
  RUN_REPORT_KEY,
  readPassedBudget,
  readRunReport,
} from './remote-run-report.js';

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

describe('readRunReport', () => {
  it("reads warren's own report", () => {
    const usage = {
      inputTokens: 10,
      outputTokens: 2,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    };
    expect(
      readRunReport({ [RUN_REPORT_KEY]: { numTurns: 2, toolCalls: 1, usage, costUsd: 0.01 } }),
    ).toEqual({ numTurns: 2, toolCalls: 1, usage, costUsd: 0.01 });
  });

  it('never yields a negative, fractional or non-numeric count, whatever the metadata', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (report, budget) => {
        const read = readRunReport({ [RUN_REPORT_KEY]: report });
        if (read) {
          expect(isCount(read.numTurns) && isCount(read.toolCalls)).toBe(true);
          for (const count of Object.values(read.usage ?? {})) expect(isCount(count)).toBe(true);
          expect(
            read.costUsd === null || (read.costUsd >= 0 && Number.isFinite(read.costUsd)),
          ).toBe(true);
        }
        const passed = readPassedBudget({ [BUDGET_KEY]: budget });
        for (const value of Object.values(passed)) {
          expect(value === undefined || isCount(value)).toBe(true);
        }
      }),
    );
  });
});
