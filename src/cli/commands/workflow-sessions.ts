// Where a session folder's workflow runs are: each session's task store, newest session first.
import { existsSync, readdirSync } from 'node:fs';
import { ConfigError } from '../../core/config-error.js';
import { taskStorePath } from '../../session/session-paths.js';
import { type StoredRun, WorkflowStore } from '../../workflows/workflow-store.js';

export interface SessionRuns {
  sessionId: string;
  runs: StoredRun[];
}

/** Every session in `sessionDir` that has workflow runs, newest first. */
export function sessionsWithRuns(sessionDir: string): SessionRuns[] {
  if (!existsSync(sessionDir)) return [];
  const found: SessionRuns[] = [];
  for (const sessionId of readdirSync(sessionDir).sort().reverse()) {
    const store = WorkflowStore.read(taskStorePath(sessionDir, sessionId));
    if (!store) continue;
    try {
      const runs = store.runs();
      if (runs.length > 0) found.push({ sessionId, runs });
    } finally {
      store.close();
    }
  }
  return found;
}

/** The session that holds run `runId`, or a ConfigError naming where it looked. */
export function sessionOfRun(sessionDir: string, runId: string): string {
  const found = sessionsWithRuns(sessionDir).find((session) =>
    session.runs.some((run) => run.runId === runId),
  );
  if (!found) {
    throw new ConfigError(
      runId,
      `no such workflow run in ${sessionDir}`,
      '`warren workflows` lists the runs; pass the same --session-dir',
    );
  }
  return found.sessionId;
}
