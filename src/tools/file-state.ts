// The file-state cache: per-agent memory of what was read: path → content hash and mtime at the last Read. Write and
// Edit consult it so an agent never overwrites a file it has not seen, or that changed since.
import { createHash } from 'node:crypto';
import type { FileSnapshot, FileState } from '../core/file-state.js';

export function hashContent(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export class FileStateCache implements FileState {
  readonly #entries = new Map<string, FileSnapshot>();
  readonly maxEntries: number;

  constructor(maxEntries = 1000) {
    this.maxEntries = maxEntries;
  }

  get(path: string): FileSnapshot | undefined {
    return this.#entries.get(path);
  }

  /** Records a snapshot; the oldest entry goes once the cap is reached. */
  set(path: string, snapshot: FileSnapshot): void {
    this.#entries.delete(path);
    this.#entries.set(path, snapshot);
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  delete(path: string): void {
    this.#entries.delete(path);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A child's copy: the newest `maxEntries` snapshots; the child's writes never reach back. */
  clone(maxEntries = this.maxEntries): FileStateCache {
    const copy = new FileStateCache(maxEntries);
    if (this.#entries.size === 0) return copy;
    const entries = [...this.#entries].slice(-maxEntries);
    for (const [path, snapshot] of entries) copy.#entries.set(path, snapshot);
    return copy;
  }
}
