// Hook blocks other tools write under `hooks:` (`pre:`, `post:`, `before_run:`): not hook events
// in any spelling, so they are another tool's settings, dropped with a warning. A key that could
// be a mistyped event (`PretoolUse`, `pretooluse`) is left for the hook check to refuse: a guard
// that silently went missing would change what the agent may do.
import { HOOK_EVENTS } from '../core/hook-runner.js';

/** Events warren fires, folded (`pretooluse`): a key that folds to one is meant as an event. */
const FOLDED_EVENTS = new Set(HOOK_EVENTS.map(fold));

export interface SplitHookBlocks {
  /** What the hook check reads. */
  hooks: Record<string, unknown>;
  /** Keys dropped as another tool's blocks. */
  foreign: string[];
}

export function splitForeignHookBlocks(value: Record<string, unknown>): SplitHookBlocks {
  const hooks: Record<string, unknown> = {};
  const foreign: string[] = [];
  for (const [key, block] of Object.entries(value)) {
    if (/^[a-z]/.test(key) && !FOLDED_EVENTS.has(fold(key))) foreign.push(key);
    else Object.defineProperty(hooks, key, { value: block, enumerable: true, writable: true });
  }
  return { hooks, foreign };
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}
