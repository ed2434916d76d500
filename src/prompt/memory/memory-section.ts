// An agent's memory in its system prompt: where the folder is, how to keep it, and the start
// of its MEMORY.md.
import path from 'node:path';
import type { PromptSection } from '../prompt-section.js';
import {
  type AgentMemory,
  MEMORY_MAX_BYTES,
  MEMORY_MAX_LINES,
  type MemoryScope,
} from './agent-memory.js';

const SCOPES: Record<MemoryScope, string> = {
  user: 'yours in every project',
  project: "this project's, kept with it",
  local: "this project's, on this machine only",
};

export function memorySection(memory: AgentMemory): PromptSection {
  const file = path.join(memory.dir, 'MEMORY.md');
  const contents =
    memory.text.trim() === ''
      ? 'MEMORY.md is empty or does not exist yet.'
      : `<memory file="${file}">\n${memory.text.trim()}\n</memory>${memory.cut ? `\n\n[Only the first ${MEMORY_MAX_LINES} lines (${MEMORY_MAX_BYTES / 1024} KB) of MEMORY.md are shown: shorten it.]` : ''}`;
  return {
    name: 'agent-memory',
    text: `# Agent memory

You have a memory folder that outlives this session (${SCOPES[memory.scope]}): ${memory.dir}
- Keep there what would help you next time: conventions, decisions and their reasons, where things are, mistakes to avoid. Not what only this task needs.
- MEMORY.md is its index, shown below at the start of every session (its first ${MEMORY_MAX_LINES} lines, ${MEMORY_MAX_BYTES / 1024} KB). Keep it short; put details in other files of the folder and name them in MEMORY.md.
- Read, Write and Edit work in that folder without asking. Read a file before changing it.

${contents}`,
  };
}
