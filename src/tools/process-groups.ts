// The process groups tools started (Bash runs each command in one), so that none outlives the
// process that started it: on the way out (exit, a second Ctrl-C, SIGTERM, SIGHUP) every group
// still alive gets SIGKILL, including one whose commands ignore SIGTERM.

const live = new Set<number>();
let hooked = false;

/**
 * Remembers a process group (by its leader's pid) until `forget` is called. The first one makes
 * process exit kill whatever is left: a tool told to stop may have been abandoned by the loop,
 * and the SIGKILL it has scheduled would otherwise never come.
 */
export function trackProcessGroup(pgid: number): { forget(): void } {
  live.add(pgid);
  if (!hooked) {
    hooked = true;
    process.on('exit', killLiveProcessGroups);
  }
  return { forget: () => live.delete(pgid) };
}

/** Whether any process of the group still runs and is ours to signal. */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the id now belongs to someone else's group.
    return false;
  }
}

/** SIGKILL to every tracked group; synchronous, so it can run in an `exit` handler. */
export function killLiveProcessGroups(): void {
  for (const pgid of live) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // ESRCH: that group is already gone.
    }
  }
  live.clear();
}
