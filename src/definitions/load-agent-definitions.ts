// Finds every definition a run can use (built-in, user, project, --agents-dir, SDK), loads
// them concurrently, and decides which one each name resolves to: SDK > CLI > project > user >
// built-in; among project folders, the nearest to the working folder (up to the repository
// root) wins. Every file is reported, overridden and broken ones included.
import type { Dirent } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { projectFolders } from '../tools/project-folders.js';
import type {
  AgentDefinition,
  AgentDefinitionInput,
  AgentFileFormat,
  AgentSource,
  AgentSourceKind,
} from './agent-definition.js';
import { type AgentLoadEntry, sourceLabel } from './agent-load-entry.js';
import { buildAgentDefinition } from './build-agent-definition.js';
import { builtinAgents } from './builtin-agents.js';
import type { loadAgentFile } from './load-agent-file.js';

export interface LoadAgentDefinitionsOptions {
  /**
   * The working folder: `.warren/agents/`, `.claude/agents/`, `.opencode/agent(s)/`,
   * `.codex/agents/` and `.gemini/agents/` under it and under each folder above it up to the
   * repository root (tools/project-folders.ts).
   */
  cwd: string;
  /** The project folders, nearest first; default projectFolders(cwd). */
  projectDirs?: readonly string[];
  /** Where `~/.warren/agents/` is looked for; defaults to the user's home directory. */
  homeDir?: string;
  /** `--agents-dir` folders (relative to `cwd`), at CLI precedence; the first listed wins a tie. */
  agentsDirs?: readonly string[];
  /** Programmatic definitions keyed by name (the SDK's `agents` option); they win over all. */
  agents?: Readonly<Record<string, AgentDefinitionInput>>;
  /** Include `general-purpose`, `explore` and `plan`; default true. */
  builtins?: boolean;
}

export interface AgentDefinitionsResult {
  /** The definition each name resolves to. */
  definitions: Map<string, AgentDefinition>;
  /** Every definition seen, highest precedence first, with its status and diagnostics. */
  entries: AgentLoadEntry[];
}

/**
 * Folders of project definitions, in the order they win ties (warren's own first), each with
 * the format its files are read as.
 */
const PROJECT_AGENT_DIRS: readonly { dir: string; format: AgentFileFormat }[] = [
  { dir: '.warren/agents', format: 'warren' },
  { dir: '.claude/agents', format: 'claude-code' },
  { dir: '.opencode/agents', format: 'opencode' },
  { dir: '.opencode/agent', format: 'opencode' },
  { dir: '.codex/agents', format: 'codex' },
  { dir: '.gemini/agents', format: 'gemini' },
];

const USER_AGENT_DIR = '.warren/agents';

const PRECEDENCE: Record<AgentSourceKind, number> = {
  sdk: 4,
  cli: 3,
  'agents-dir': 3,
  project: 2,
  user: 1,
  builtin: 0,
};

/** Files read at once; far below common open-file limits. */
const READ_CONCURRENCY = 64;

interface Root {
  dir: string;
  kind: 'project' | 'user' | 'agents-dir';
  /** A project folder's definitions: that folder (nearer ones win a name over farther ones). */
  folder?: string;
  /** Undefined: by extension (`*.toml` is Codex's, `*.md` warren's). */
  format?: AgentFileFormat;
}

export async function loadAgentDefinitions(
  options: LoadAgentDefinitionsOptions,
): Promise<AgentDefinitionsResult> {
  const roots: Root[] = [
    ...(options.agentsDirs ?? []).map(
      (dir): Root => ({ dir: path.resolve(options.cwd, dir), kind: 'agents-dir' }),
    ),
    ...(options.projectDirs ?? projectFolders(options.cwd)).flatMap((folder) =>
      PROJECT_AGENT_DIRS.map(
        ({ dir, format }): Root => ({
          dir: path.join(folder, dir),
          kind: 'project',
          format,
          folder,
        }),
      ),
    ),
    {
      dir: path.join(options.homeDir ?? os.homedir(), USER_AGENT_DIR),
      kind: 'user',
      format: 'warren',
    },
  ];
  // Run from the home folder, the project and user folders are one: read it once, as project.
  const distinct = roots.filter((root, i) => roots.findIndex((r) => r.dir === root.dir) === i);
  const listed = await Promise.all(distinct.map(listRoot));
  const files = await oncePerRealFile(listed.flatMap((root) => root.files));
  const fileEntries =
    files.length === 0 ? [] : await loadFiles(files.map(({ folder, ...file }) => file));
  const folderOf = new Map(files.map((file) => [file.path, file.folder]));

  const entries = [
    ...sdkEntries(options.agents ?? {}),
    ...listed.flatMap((root) => root.errors),
    ...fileEntries,
    ...(options.builtins === false ? [] : builtinEntries()),
  ].sort((a, b) => PRECEDENCE[b.source.kind] - PRECEDENCE[a.source.kind]);
  return {
    definitions: resolvePrecedence(entries, (entry) => folderOf.get(entry.source.path ?? '')),
    entries,
  };
}

/**
 * Each real file once, where it is first seen: a folder linked into another (`.claude/agents`
 * -> `.warren/agents`) holds the same agents, not rivals of the same name.
 */
async function oncePerRealFile(files: ListedFile[]): Promise<ListedFile[]> {
  const reals = await Promise.all(files.map((file) => realpath(file.path).catch(() => file.path)));
  return files.filter((_, i) => reals.indexOf(reals[i]!) === i);
}

/**
 * The library's definitions: the built-ins with `agents` (the SDK option) over them, no files.
 * A definition that cannot be used is a ConfigError naming it and the field.
 */
export function resolveAgentDefinitions(
  agents: Readonly<Record<string, AgentDefinitionInput>>,
): Map<string, AgentDefinition> {
  const entries = [...sdkEntries(agents), ...builtinEntries()];
  const broken = entries.find((entry) => entry.status === 'error');
  if (broken) {
    throw new ConfigError(`agents.${broken.name}`, broken.error?.message ?? 'cannot be used');
  }
  return resolvePrecedence(entries);
}

interface ListedFile {
  path: string;
  kind: Root['kind'];
  format?: AgentFileFormat;
  folder?: string;
}

interface ListedRoot {
  files: ListedFile[];
  errors: AgentLoadEntry[];
}

/**
 * Every definition file under the folder, shallowest first (so a top-level file wins a tie):
 * `*.md` but READMEs, or `*.toml` in a Codex folder (both in an `--agents-dir`).
 */
async function listRoot(root: Root): Promise<ListedRoot> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(root.dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      if (root.kind !== 'agents-dir') return { files: [], errors: [] };
      throw new ConfigError(
        `--agents-dir ${root.dir}`,
        'no such directory',
        'pass a folder that holds agent definition files (*.md)',
      );
    }
    const source = { kind: root.kind, path: root.dir, ...(root.format && { format: root.format }) };
    const message = `cannot read the folder: ${(error as Error).message}`;
    return {
      files: [],
      errors: [
        {
          name: path.basename(root.dir),
          source,
          status: 'error',
          error: { message },
          warnings: [],
          notes: [],
        },
      ],
    };
  }
  const extension =
    root.format === undefined ? /\.(?:md|toml)$/i : root.format === 'codex' ? /\.toml$/i : /\.md$/i;
  const paths = dirents
    .filter((d) => (d.isFile() || d.isSymbolicLink()) && extension.test(d.name))
    .filter((d) => d.name.toLowerCase() !== 'readme.md')
    .map((d) => path.join(d.parentPath, d.name))
    .sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
  const files = paths.map((file) => ({
    path: file,
    kind: root.kind,
    ...(root.format !== undefined && { format: root.format }),
    ...(root.folder !== undefined && { folder: root.folder }),
  }));
  return { files, errors: [] };
}

function depth(file: string): number {
  return file.split(path.sep).length;
}

function sdkEntries(agents: Readonly<Record<string, AgentDefinitionInput>>): AgentLoadEntry[] {
  return Object.entries(agents).map(([name, input]) => {
    const source: AgentSource = { kind: 'sdk' };
    const built = buildAgentDefinition({
      fields: { ...input },
      origin: 'sdk',
      fallbackName: name,
      source,
    });
    const { warnings, notes, unknownTools } = built;
    if (built.error) return { name, source, status: 'error', error: built.error, warnings, notes };
    const unknown = unknownTools && { unknownTools };
    return {
      name,
      source,
      status: 'ok',
      definition: built.definition,
      warnings,
      notes,
      ...unknown,
    };
  });
}

function builtinEntries(): AgentLoadEntry[] {
  return builtinAgents().map((definition) => ({
    name: definition.name,
    source: definition.source,
    status: 'ok',
    definition,
    warnings: [],
    notes: [],
  }));
}

/**
 * The first usable entry of each name wins (entries come highest precedence first); the rest
 * are marked overridden. A tie within one level is likely a mistake, so it is a warning, except
 * where the order is meant: a nearer project folder over one above it, or one agent shipped in
 * several formats side by side (`.claude/agents/x.md` and `.codex/agents/x.toml`).
 */
function resolvePrecedence(
  entries: AgentLoadEntry[],
  folderOf: (entry: AgentLoadEntry) => string | undefined = () => undefined,
): Map<string, AgentDefinition> {
  const winners = new Map<string, AgentLoadEntry>();
  for (const entry of entries) {
    if (!entry.definition) continue;
    const winner = winners.get(entry.name);
    if (!winner) {
      winners.set(entry.name, entry);
      continue;
    }
    entry.status = 'overridden';
    const by = sourceLabel(winner.source);
    const [winnerFolder, folder] = [folderOf(winner), folderOf(entry)];
    if (PRECEDENCE[winner.source.kind] !== PRECEDENCE[entry.source.kind]) {
      entry.notes.push({
        message: `overridden by ${by} (${winner.source.kind} definitions take precedence over ${entry.source.kind} ones)`,
      });
    } else if (winnerFolder !== undefined && folder !== undefined && winnerFolder !== folder) {
      entry.notes.push({
        message: `overridden by ${by} (a folder nearer the working folder wins)`,
      });
    } else if (folder !== undefined && sameAgentInAnotherFormat(winner, entry)) {
      entry.notes.push({
        message: `the same agent in ${winner.source.format} format is used (${by})`,
      });
    } else {
      entry.warnings.push({
        message: `"${entry.name}" is also defined in ${by}, which wins: at one precedence level the first found wins (earlier folder, then shallower path, then alphabetical); rename one of them`,
      });
    }
  }
  return new Map([...winners].map(([name, entry]) => [name, entry.definition!]));
}

/** One agent shipped for several tools: same file name, another format's folder. */
function sameAgentInAnotherFormat(a: AgentLoadEntry, b: AgentLoadEntry): boolean {
  const stem = (file = '') => path.basename(file).replace(/\.(?:md|toml)$/i, '');
  return a.source.format !== b.source.format && stem(a.source.path) === stem(b.source.path);
}

/** The file parser (and YAML with it) loads only when there are files to parse. */
async function loadFiles(files: Parameters<typeof loadAgentFile>[0][]): Promise<AgentLoadEntry[]> {
  const { loadAgentFile } = await import('./load-agent-file.js');
  return mapConcurrently(files, READ_CONCURRENCY, loadAgentFile);
}

async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
