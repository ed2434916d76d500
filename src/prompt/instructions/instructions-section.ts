// The project instructions as a section of a system prompt: each file in a tag naming it, most
// general first, so a model can tell which file said what and which one wins.
import type { PromptSection } from '../prompt-section.js';
import type { InstructionFile } from './project-instructions.js';

export function instructionsSection(files: readonly InstructionFile[]): PromptSection | undefined {
  if (files.length === 0) return undefined;
  const blocks = files.map((file) => {
    const from = file.importedBy === undefined ? '' : ` imported-by="${file.importedBy}"`;
    return `<instructions file="${file.shown}"${from}>\n${file.text.trim()}\n</instructions>`;
  });
  return {
    name: 'project-instructions',
    text: `# Project instructions

The person's own instructions and this project's (AGENTS.md, CLAUDE.md, WARREN.md and the files they import), most general first: where two disagree, the later one wins. Follow them; a task you are given wins over them.

${blocks.join('\n\n')}`,
  };
}
