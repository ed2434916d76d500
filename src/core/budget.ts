// Spending limits shared down an agent tree. A child's budget is a node under its parent's:
// it sees min(its own limit, what every ancestor has left), and what it spends counts for all.
// After the time budget, the tree shares one wind-down window, split so that it holds at any depth.

/** How long a tree has to wind down after its time budget, unless the root says otherwise. */
const DEFAULT_WIND_DOWN_MS = 60_000;

export interface BudgetLimits {
  /** Wall-clock time from now. */
  timeMs?: number;
  /** Input (cached or not) plus output tokens. */
  tokens?: number;
  /** Dollars, counted only for models whose price is known. */
  costUsd?: number;
  /**
   * After the time budget, how long the whole tree has to wind down (stop its tools, give its
   * final reports). Set on the root; children share the root's. Default 60 s.
   */
  windDownMs?: number;
}

export type BudgetKind = 'time' | 'tokens' | 'cost';

export interface BudgetRemaining {
  ms: number;
  tokens: number;
  costUsd: number;
}

export class Budget {
  readonly parent: Budget | undefined;
  /** Epoch ms after which this node (and so its subtree) is out of time. */
  readonly deadline: number;
  readonly tokenLimit: number;
  readonly costLimit: number;
  /** The tree's wind-down window: the root's, whatever a child asks for. */
  readonly windDownMs: number;
  tokensSpent = 0;
  costSpent = 0;

  constructor(limits: BudgetLimits = {}, parent?: Budget) {
    this.parent = parent;
    this.deadline = limits.timeMs === undefined ? Infinity : Date.now() + limits.timeMs;
    this.tokenLimit = limits.tokens ?? Infinity;
    this.costLimit = limits.costUsd ?? Infinity;
    this.windDownMs = parent?.windDownMs ?? limits.windDownMs ?? DEFAULT_WIND_DOWN_MS;
  }

  child(limits: BudgetLimits = {}): Budget {
    return new Budget(limits, this);
  }

  /** Records spending here and in every ancestor. */
  spend(tokens: number, costUsd: number | null): void {
    for (let node: Budget | undefined = this; node; node = node.parent) {
      node.tokensSpent += tokens;
      if (costUsd !== null) node.costSpent += costUsd;
    }
  }

  remaining(now = Date.now()): BudgetRemaining {
    const left = { ms: Infinity, tokens: Infinity, costUsd: Infinity };
    for (let node: Budget | undefined = this; node; node = node.parent) {
      left.ms = Math.min(left.ms, node.deadline - now);
      left.tokens = Math.min(left.tokens, node.tokenLimit - node.tokensSpent);
      left.costUsd = Math.min(left.costUsd, node.costLimit - node.costSpent);
    }
    return left;
  }

  /** The first limit that has run out, here or in an ancestor. */
  exhausted(now = Date.now()): BudgetKind | undefined {
    const left = this.remaining(now);
    if (left.ms <= 0) return 'time';
    if (left.tokens <= 0) return 'tokens';
    if (left.costUsd <= 0) return 'cost';
    return undefined;
  }

  /** The nearest deadline on the path to the root, for one timer per agent. */
  effectiveDeadline(): number {
    let deadline = Infinity;
    for (let node: Budget | undefined = this; node; node = node.parent) {
      deadline = Math.min(deadline, node.deadline);
    }
    return deadline;
  }

  /**
   * When this node's agent must have ended, its final report included: its deadline plus the
   * window, but never later than halfway through its parent's wind-down. A parent waits for its
   * children in the first half of its window and reports in the second, so the window of a tree
   * of any depth closes `windDownMs` after the root's deadline (W/2 for depth 1, W/4 for depth 2…).
   */
  windDownEnd(): number {
    const own = this.deadline + this.windDownMs;
    if (!this.parent) return own;
    const parentDeadline = this.parent.effectiveDeadline();
    if (!Number.isFinite(parentDeadline)) return own;
    const parentEnd = this.parent.windDownEnd();
    return Math.min(own, parentDeadline + (parentEnd - parentDeadline) / 2);
  }
}

export function describeBudget(kind: BudgetKind): string {
  if (kind === 'time') return 'time budget';
  if (kind === 'tokens') return 'token budget';
  return 'cost budget';
}
