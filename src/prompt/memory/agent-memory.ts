// An agent's memory (a definition's `memory: user | project | local`): a folder that outlives the
// session, whose MEMORY.md (its first 200 lines, 25 KB at most) opens the agent's prompt. The
// folder is where the agent may write without asking, so it must be exactly where it says it
// is: a folder reached through a symlink is refused.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import { canonicalLocation } from '../../tools/allowed-path.js';
import { readConfinedText } from '../confined-text-file.js';

export type MemoryScope = NonNullable<AgentDefinition['memory']>;

/** What of MEMORY.md goes into the prompt: Claude Code's limits. */
export const MEMORY_MAX_LINES = 200;
export const MEMORY_MAX_BYTES = 25 * 1024;

export interface AgentMemory {
  scope: MemoryScope;
  /** The folder, real location. */
  dir: string;
  /** The start of MEMORY.md; empty when there is none yet. */
  text: string;
  /** Whether MEMORY.md holds more than `text`. */
  cut: boolean;
}

export interface MemoryPlaces {
  /** The session's project folder: `.warren/agent-memory[-local]/` are under it. */
  projectDir: string;
  /** `$WARREN_HOME`: `agent-memory/` is under it. */
  warrenHome: string;
}

/** Where each scope keeps an agent's memory, as [base folder, path below it]. */
function place(name: string, scope: MemoryScope, places: MemoryPlaces): [string, string] {
  switch (scope) {
    case 'user':
      return [places.warrenHome, path.join('agent-memory', name)];
    case 'project':
      return [places.projectDir, path.join('.warren', 'agent-memory', name)];
    case 'local':
      return [places.projectDir, path.join('.warren', 'agent-memory-local', name)];
  }
}

export type LoadedMemory =
  | { memory: AgentMemory; warning?: string }
  | { memory?: undefined; warning: string };

/**
 * The memory of agent `name`; the folder need not exist yet (the first Write creates it).
 * @param name a checked agent name: a single path segment
 */
export async function loadAgentMemory(
  name: string,
  scope: MemoryScope,
  places: MemoryPlaces,
): Promise<LoadedMemory> {
  const [base, below] = place(name, scope, places);
  const realBase = await realpath(base).catch(() => path.resolve(base));
  const dir = path.join(realBase, below);
  const real = await canonicalLocation(dir);
  if (real !== dir) {
    return {
      warning: `the memory folder of agent "${name}" (${dir}) leads elsewhere through a symlink (${real ?? 'a loop'}); its memory is off: make it a plain folder`,
    };
  }
  const read = await readConfinedText(path.join(dir, 'MEMORY.md'), dir, MEMORY_MAX_BYTES);
  if (!read.ok) {
    const memory: AgentMemory = { scope, dir, text: '', cut: false };
    if (read.missing) return { memory };
    return { memory, warning: `${path.join(dir, 'MEMORY.md')}: ${read.problem}` };
  }
  const lines = read.text.split('\n');
  const text = lines.slice(0, MEMORY_MAX_LINES).join('\n');
  return {
    memory: {
      scope,
      dir,
      text,
      cut: read.cutFrom !== undefined || lines.length > MEMORY_MAX_LINES,
    },
  };
}
