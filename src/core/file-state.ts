// What an agent remembers of the files it read, so Write and Edit can refuse a file it has not
// seen or that changed since. The cache behind it is tools/file-state.ts.

export interface FileSnapshot {
  hash: string;
  mtimeMs: number;
}

export interface FileState {
  get(path: string): FileSnapshot | undefined;
  set(path: string, snapshot: FileSnapshot): void;
  delete(path: string): void;
  readonly size: number;
  /** A child's copy of at most `maxEntries` snapshots; the child's reads never reach back. */
  clone(maxEntries?: number): FileState;
}
