// The tools an agent with a memory folder gets for it when its own list lacks them: Read,
// Write and Edit that reach that folder and nothing else. Taken from its parent's tools, so an
// agent still never holds a tool its parent lacks.
import type { PlainTool, Tool } from '../../core/tool.js';

const MEMORY_TOOL_NAMES = ['Read', 'Write', 'Edit'] as const;

/**
 * @param granted the agent's tools as its definition narrowed them
 * @param parentTools what it was narrowed from
 */
export function memoryTools(
  granted: readonly Tool[],
  parentTools: readonly Tool[],
  memoryDir: string,
): Tool[] {
  return MEMORY_TOOL_NAMES.flatMap((name) => {
    if (granted.some((tool) => tool.name === name)) return [];
    const tool = parentTools.find((candidate) => candidate.name === name);
    if (tool === undefined || tool.spawnsAgents) return [];
    return [confinedTo(tool, memoryDir)];
  });
}

/** The tool, for files inside `dir` only: its path checks see no other allowed folder. */
function confinedTo(tool: PlainTool, dir: string): Tool {
  return {
    ...tool,
    description: `${tool.description}\n\nThis agent has ${tool.name} for its memory folder only: ${dir}`,
    call: (input, ctx) => tool.call(input, { ...ctx, allowedDirs: [dir] }),
  };
}
