import { describe, expect, it } from 'vitest';
import { Budget } from './budget.js';

describe('Budget', () => {
  it('has no limits unless given some', () => {
    expect(new Budget().exhausted()).toBeUndefined();
    expect(new Budget().remaining().tokens).toBe(Infinity);
  });

  it('gives a child the smaller of its own limit and what its parent has left', () => {
    const root = new Budget({ tokens: 1000 });
    root.spend(700, null);
    expect(root.child({ tokens: 500 }).remaining().tokens).toBe(300);
    expect(root.child({ tokens: 100 }).remaining().tokens).toBe(100);
  });

  it('counts what a grandchild spends against every ancestor', () => {
    const root = new Budget({ tokens: 1000, costUsd: 1 });
    const child = root.child();
    const grandchild = child.child({ tokens: 5000 });
    grandchild.spend(400, 0.25);
    expect(root.tokensSpent).toBe(400);
    expect(child.tokensSpent).toBe(400);
    expect(root.costSpent).toBe(0.25);
    grandchild.spend(600, null);
    expect(root.exhausted()).toBe('tokens');
    expect(grandchild.exhausted()).toBe('tokens');
  });

  it('runs out of time at the nearest deadline on the path to the root', () => {
    const now = Date.now();
    const root = new Budget({ timeMs: 1000 });
    const child = root.child({ timeMs: 60_000 });
    expect(child.effectiveDeadline()).toBe(root.deadline);
    expect(child.exhausted(now + 500)).toBeUndefined();
    expect(child.exhausted(now + 2000)).toBe('time');
  });

  it('shares one wind-down window: each level ends halfway through its parent’s', () => {
    const root = new Budget({ timeMs: 1000, windDownMs: 8000 });
    const child = root.child({ windDownMs: 999_999 });
    const grandchild = child.child();
    const greatGrandchild = grandchild.child();
    expect(root.windDownEnd() - root.deadline).toBe(8000);
    expect(child.windDownEnd() - root.deadline).toBe(4000);
    expect(grandchild.windDownEnd() - root.deadline).toBe(2000);
    expect(greatGrandchild.windDownEnd() - root.deadline).toBe(1000);
  });

  it('closes the window of a child on a shorter budget of its own no later than its parent’s', () => {
    const root = new Budget({ timeMs: 10_000, windDownMs: 8000 });
    const short = root.child({ timeMs: 1000 });
    expect(short.windDownEnd()).toBe(short.deadline + 8000);
    expect(root.child({ timeMs: 9000 }).windDownEnd()).toBe(root.deadline + 4000);
    expect(new Budget().windDownEnd()).toBe(Infinity);
    expect(new Budget().child({ timeMs: 1000 }).windDownEnd()).toBeLessThan(Infinity);
  });

  it('runs out of money only for spending with a known price', () => {
    const budget = new Budget({ costUsd: 0.5 });
    budget.spend(10, null);
    expect(budget.exhausted()).toBeUndefined();
    budget.spend(10, 0.5);
    expect(budget.exhausted()).toBe('cost');
  });
});
