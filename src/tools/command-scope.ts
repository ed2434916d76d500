// Where one read-only command may look: the allowed directories and the directories it may be
// working in (a `cd` adds one), as real paths; and whether a path it is given stays inside them.
import path from 'node:path';
import { isInside } from './allowed-path.js';
import { type PhysicalPath, physicalPath } from './physical-path.js';

/** Where a command may look: with it, reading outside the allowed directories is not read-only. */
export interface PathScope {
  cwd: string;
  allowedDirs: readonly string[];
}

export class CommandScope {
  /** Real paths of the allowed directories. */
  readonly allowed: readonly string[];
  /** Real paths of every directory the command may be in at this point (a `cd` may fail). */
  readonly cwds: string[];

  constructor(scope: PathScope) {
    this.allowed = scope.allowedDirs.map(realDirectory);
    this.cwds = [realDirectory(scope.cwd)];
  }

  isAllowed(realPath: string): boolean {
    return this.allowed.some((dir) => isInside(realPath, dir));
  }

  /** Where `target` leads from each possible working directory. */
  resolve(target: string, from: readonly string[] = this.cwds): PhysicalPath[] {
    return from.map((cwd) => physicalPath(target, cwd));
  }

  /**
   * Why reading `target` (as `shown` in the command) could reach outside the allowed
   * directories, or undefined. A path that does not exist cannot be opened, so it passes.
   */
  readProblem(target: string, shown: string, from?: readonly string[]): string | undefined {
    for (const resolved of this.resolve(target, from)) {
      const problem = this.#problemOf(resolved, shown);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  #problemOf(resolved: PhysicalPath, shown: string): string | undefined {
    switch (resolved.kind) {
      case 'loop':
        return `${shown} is part of a symlink loop`;
      case 'system':
        return `${shown} is a process, system or device file (${resolved.path}), which can reveal the environment (API keys)`;
      case 'missing':
        return undefined;
      case 'found': {
        if (this.isAllowed(resolved.path)) return undefined;
        return `it reads ${shown}, which is ${resolved.path}, outside the allowed directories (${this.allowed.join(', ')})`;
      }
    }
  }
}

/** The real path of a directory, or the path itself when it cannot be resolved. */
function realDirectory(dir: string): string {
  const absolute = path.resolve(dir);
  const resolved = physicalPath(absolute, '/');
  return resolved.kind === 'found' ? resolved.path : absolute;
}
