// Child processes that run in a group of their own (spawned `detached`): Bash commands, stdio
// MCP servers, command hooks. Stopping one stops whatever it started too; and none outlives
// warren: the groups still alive are killed when this process exits, and when a CLI run ends.
const live = new Set<number>();
let exitHooked = false;

/** Sends a signal to every process of the group; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: no process left in the group, which is what a stop wants anyway.
    return false;
  }
}

/** SIGTERM to every process of the group, SIGKILL to whatever is left after `graceMs`. */
export function stopGroup(pid: number, graceMs: number): void {
  signalGroup(pid, 'SIGTERM');
  setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs).unref();
}

/**
 * Remembers a group until `releaseGroup`, so that it is killed if this process exits first
 * (a second Ctrl-C, an uncaught error): nothing a run started outlives it.
 */
export function trackGroup(pid: number): void {
  live.add(pid);
  if (exitHooked) return;
  exitHooked = true;
  // Only synchronous work is possible on exit: SIGKILL, with no time left for a grace period.
  process.on('exit', killLiveGroups);
}

/** SIGKILL to every group still tracked; synchronous, so an `exit` handler can run it. */
export function killLiveGroups(): void {
  for (const group of live) signalGroup(group, 'SIGKILL');
  live.clear();
}

export function releaseGroup(pid: number): void {
  live.delete(pid);
}

/** Groups started and not yet seen gone, for tests and diagnostics. */
export function liveGroups(): number[] {
  return [...live];
}
