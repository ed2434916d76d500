// Many hooks answer one event; this makes one answer of theirs, the strictest: a deny beats an
// ask beats an allow, any block blocks, a flag or block of the handoff wins over an allow.
// Texts are kept in the order the hooks are configured.
import type { HandoffVerdict, HookOutcome } from '../core/hook-runner.js';

const PERMISSION_RANK = { allow: 0, ask: 1, deny: 2 } as const;
const HANDOFF_RANK = { allow: 0, flag: 1, block: 2 } as const;

export function mergeOutcomes(outcomes: readonly HookOutcome[]): HookOutcome {
  if (outcomes.length === 1) return outcomes[0]!;
  const merged: HookOutcome = { warnings: outcomes.flatMap((outcome) => outcome.warnings) };
  const permission = strictest(
    outcomes.map((o) => o.permission),
    (p) => PERMISSION_RANK[p.decision],
  );
  if (permission) {
    const reasons = outcomes
      .filter((o) => o.permission?.decision === permission.decision)
      .map((o) => o.permission!.reason);
    merged.permission = { decision: permission.decision, reason: reasons.join('; ') };
  }
  // The first replacement input in configuration order; a denied call needs none.
  const updatedInput = outcomes.find((o) => o.updatedInput)?.updatedInput;
  if (updatedInput && merged.permission?.decision !== 'deny') merged.updatedInput = updatedInput;
  const block = joined(
    outcomes.map((o) => o.block),
    '\n',
  );
  if (block !== undefined) merged.block = block;
  const context = joined(
    outcomes.map((o) => o.context),
    '\n\n',
  );
  if (context !== undefined) merged.context = context;
  const handoff = strictestHandoff(outcomes.map((o) => o.handoff));
  if (handoff) merged.handoff = handoff;
  const fatal = joined(
    outcomes.map((o) => o.fatal),
    ', ',
  );
  if (fatal !== undefined) merged.fatal = fatal;
  return merged;
}

/** The strictest of several handoff verdicts, with the reasons of those that decided it. */
export function strictestHandoff(
  verdicts: ReadonlyArray<HandoffVerdict | undefined>,
): HandoffVerdict | undefined {
  const top = strictest(verdicts, (v) => HANDOFF_RANK[v.decision]);
  if (!top) return undefined;
  const reason = joined(
    verdicts.filter((v) => v?.decision === top.decision).map((v) => v?.reason),
    '; ',
  );
  return { decision: top.decision, ...(reason === undefined ? {} : { reason }) };
}

function strictest<T>(
  values: ReadonlyArray<T | undefined>,
  rank: (value: T) => number,
): T | undefined {
  let top: T | undefined;
  for (const value of values) {
    if (value !== undefined && (top === undefined || rank(value) > rank(top))) top = value;
  }
  return top;
}

function joined(texts: ReadonlyArray<string | undefined>, separator: string): string | undefined {
  const present = texts.filter((text): text is string => text !== undefined);
  return present.length > 0 ? present.join(separator) : undefined;
}
