// Finds the instructions an agent follows in a project: `$WARREN_HOME/AGENTS.md` (the person's
// own), then AGENTS.md, CLAUDE.md and WARREN.md in every folder from the repository root down to
// the working directory, each followed by the files it imports with `@path`. A cloned
// repository is a stranger's, so imports stay inside it, skip hidden files, and are bounded.
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { MAX_TEXT_BYTES } from '../../definitions/text-limits.js';
import { isInside } from '../../tools/allowed-path.js';
import { readConfinedText } from '../confined-text-file.js';
import { importReferences } from './instruction-imports.js';

/** The file names read in each folder, in this order. */
const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md', 'WARREN.md'] as const;

/** Hops from a found file to an import of an import…: Claude Code's limit. */
export const MAX_IMPORT_DEPTH = 5;

/** All files together; what does not fit is left out with a warning. */
const MAX_INSTRUCTIONS_BYTES = 128 * 1024;

export interface InstructionFile {
  /** Real location. */
  path: string;
  /** How the prompt names it: relative to the repository root, or `~/…`. */
  shown: string;
  text: string;
  /** `shown:line` of the `@path` that brought it in. */
  importedBy?: string;
}

export interface ProjectInstructions {
  files: InstructionFile[];
  /** `file:line: problem`, for people. */
  warnings: string[];
}

export interface LoadProjectInstructionsOptions {
  /** The agent's working directory. */
  cwd: string;
  /** `$WARREN_HOME`: its AGENTS.md is the person's own instructions. */
  warrenHome: string;
  /** The home folder: `@~/…` in the person's own file, and `~/` in names shown. */
  homeDir: string;
}

/** Where a file may import from, and whether hidden files are allowed there. */
interface Scope {
  roots: readonly string[];
  /** `~/` resolves only in the person's own file. */
  home: boolean;
  hidden: boolean;
}

export async function loadProjectInstructions(
  written: LoadProjectInstructionsOptions,
): Promise<ProjectInstructions> {
  // Real locations, so names and checks agree with the real paths of the files read.
  const [cwd, warrenHome, homeDir] = await Promise.all(
    [written.cwd, written.warrenHome, written.homeDir].map((dir) =>
      realpath(dir).catch(() => path.resolve(dir)),
    ),
  );
  const options = { cwd: cwd!, warrenHome: warrenHome!, homeDir: homeDir! };
  const root = repositoryRoot(options.cwd);
  const loader = new InstructionsLoader(options, root);
  const user: Scope = { roots: [options.homeDir, options.warrenHome], home: true, hidden: true };
  await loader.add(path.join(options.warrenHome, 'AGENTS.md'), user);
  const project: Scope = { roots: [root], home: false, hidden: false };
  for (const dir of foldersDown(root, options.cwd)) {
    for (const name of INSTRUCTION_FILE_NAMES) await loader.add(path.join(dir, name), project);
  }
  return { files: loader.files, warnings: loader.warnings };
}

/** The nearest folder at or above `cwd` that holds `.git`; `cwd` itself when there is none. */
function repositoryRoot(cwd: string): string {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return cwd;
  }
}

/** `root`, then each folder below it on the way to `cwd`, then `cwd`. */
function foldersDown(root: string, cwd: string): string[] {
  const folders = [cwd];
  for (let dir = cwd; dir !== root && path.dirname(dir) !== dir; ) {
    dir = path.dirname(dir);
    folders.unshift(dir);
  }
  return folders;
}

class InstructionsLoader {
  readonly files: InstructionFile[] = [];
  readonly warnings: string[] = [];
  readonly #options: LoadProjectInstructionsOptions;
  readonly #root: string;
  readonly #seen = new Set<string>();
  readonly #texts = new Set<string>();
  #bytes = 0;

  constructor(options: LoadProjectInstructionsOptions, root: string) {
    this.#options = options;
    this.#root = root;
  }

  /** Adds a found file (not an import) and what it imports; nothing when it is not there. */
  async add(file: string, scope: Scope): Promise<void> {
    await this.#read(file, scope, []);
  }

  /**
   * @param chain the files that imported this one, outermost first, for cycles and depth
   * @param importedBy `shown:line` of the import, for an imported file
   */
  async #read(
    file: string,
    scope: Scope,
    chain: readonly string[],
    importedBy?: string,
  ): Promise<void> {
    const where = importedBy ?? this.#shown(file);
    const read = await this.#readWithin(file, scope);
    if (!read.ok) {
      if (read.missing) return;
      this.warnings.push(
        `${where}: ${importedBy ? `the import ${this.#shown(file)} ` : ''}${read.problem}`,
      );
      return;
    }
    if (chain.includes(read.path)) {
      const cycle = [...chain, read.path].map((p) => this.#shown(p)).join(' → ');
      this.warnings.push(`${where}: import cycle ${cycle}; not read again`);
      return;
    }
    // Read once: CLAUDE.md linked to AGENTS.md, or the same text under both names.
    if (this.#seen.has(read.path) || this.#texts.has(read.text.trim())) return;
    this.#seen.add(read.path);
    const shown = this.#shown(read.path);
    if (read.cutFrom !== undefined) {
      this.warnings.push(
        `${shown}: ${read.cutFrom.toLocaleString('en-US')} bytes; only its first 64 KiB are used`,
      );
    }
    const bytes = Buffer.byteLength(read.text, 'utf8');
    if (this.#bytes + bytes > MAX_INSTRUCTIONS_BYTES) {
      this.warnings.push(
        `${where}: left out: the instructions already hold ${this.#bytes.toLocaleString('en-US')} bytes, and ${MAX_INSTRUCTIONS_BYTES / 1024} KiB is the most all files together may hold`,
      );
      return;
    }
    this.#bytes += bytes;
    this.#texts.add(read.text.trim());
    this.files.push({ path: read.path, shown, text: read.text, ...(importedBy && { importedBy }) });

    for (const reference of importReferences(read.text)) {
      const at = `${shown}:${reference.line}`;
      if (chain.length + 1 > MAX_IMPORT_DEPTH) {
        this.warnings.push(
          `${at}: @${reference.path} not read: imports nest at most ${MAX_IMPORT_DEPTH} deep`,
        );
        continue;
      }
      const target = this.#resolveImport(reference.path, read.path, scope, at);
      if (target !== undefined) await this.#read(target, scope, [...chain, read.path], at);
    }
  }

  /** The absolute path an import names, or undefined (with a warning) when it may not be read. */
  #resolveImport(written: string, from: string, scope: Scope, at: string): string | undefined {
    if (written === '~' || written.startsWith('~/')) {
      if (!scope.home) {
        this.warnings.push(
          `${at}: @${written} not read: a project's files may not import from your home folder`,
        );
        return undefined;
      }
      return path.join(this.#options.homeDir, written.slice(1));
    }
    const target = path.resolve(path.dirname(from), written);
    const root = scope.roots.find((dir) => isInside(target, dir));
    if (root === undefined) {
      this.warnings.push(
        `${at}: @${written} not read: it is outside ${scope.roots[0]}, and imports stay inside it`,
      );
      return undefined;
    }
    const hidden = path
      .relative(root, target)
      .split(path.sep)
      .some((part) => part.startsWith('.'));
    if (hidden && !scope.hidden) {
      this.warnings.push(
        `${at}: @${written} not read: hidden files and folders (.env, .git, …) are never imported from a project's files`,
      );
      return undefined;
    }
    return target;
  }

  async #readWithin(file: string, scope: Scope) {
    for (const root of scope.roots) {
      if (!isInside(file, root)) continue;
      return readConfinedText(file, root, MAX_TEXT_BYTES);
    }
    return readConfinedText(file, path.dirname(file), MAX_TEXT_BYTES);
  }

  /** Relative to the repository root for project files, `~/…` under home, else absolute. */
  #shown(file: string): string {
    if (isInside(file, this.#root)) return path.relative(this.#root, file);
    const home = this.#options.homeDir;
    if (isInside(file, home)) return path.join('~', path.relative(home, file));
    return file;
  }
}
