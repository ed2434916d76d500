// The process groups of the stdio servers this process started. Each server runs in a group of
// its own so stopping it stops whatever it started too (`npx` → node → helpers); any group still
// alive when this process exits, a second Ctrl-C included, is killed then.
const live = new Set<number>();
let exitHooked = false;

/** Remembers a group until `release`; the first one hooks process exit. */
export function trackGroup(pid: number): void {
  live.add(pid);
  if (exitHooked) return;
  exitHooked = true;
  // Only synchronous work is possible on exit: SIGKILL, with no time left for a grace period.
  process.on('exit', () => {
    for (const group of live) signalGroup(group, 'SIGKILL');
  });
}

export function releaseGroup(pid: number): void {
  live.delete(pid);
}

/** Groups started and not yet seen gone, for tests and diagnostics. */
export function liveGroups(): number[] {
  return [...live];
}

/** Sends a signal to every process of the group; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: no process left in the group.
    return false;
  }
}
