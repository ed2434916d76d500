// The main agent's id, minted in one place for every host (query(), print mode, the terminal UI,
// `warren acp`, the protocol servers, `warren workflow`).
import { lazy } from '../core/lazy.js';
import { FRESH_IDS, type RunIds } from '../core/run-ids.js';

/** The main agent's id: a replay's is the recorded one. */
export function newMainId(runIds: RunIds = FRESH_IDS): string {
  return runIds.agentId('main', freshMainId);
}

/** node:crypto is taken on the first run, not by `import 'warren'` (~5 ms to load), and kept. */
const nodeCrypto = lazy(() => process.getBuiltinModule('node:crypto'));

function freshMainId(): string {
  return `main_${nodeCrypto().randomUUID().slice(0, 8)}`;
}
