// The skills in a system prompt: the list every agent with the Skill tool sees (name and
// description), and the whole text of the skills a definition preloads with `skills: [a, b]`.
import type { PromptSection } from '../prompt-section.js';
import type { Skill } from './skill-catalog.js';

export function skillsListSection(skills: Iterable<Skill>): PromptSection | undefined {
  const lines = [...skills]
    .filter((skill) => skill.listed)
    .map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')}`);
  if (lines.length === 0) return undefined;
  return {
    name: 'skills',
    text: `# Skills

Skills are instructions for particular kinds of task. Before a task one of them covers, load it with the Skill tool (its name as \`name\`) and follow it.

${lines.join('\n')}`,
  };
}

export function preloadedSkillsSection(skills: readonly Skill[]): PromptSection | undefined {
  if (skills.length === 0) return undefined;
  const blocks = skills.map(
    (skill) => `<skill name="${skill.name}" folder="${skill.dir}">\n${skill.body.trim()}\n</skill>`,
  );
  return {
    name: 'preloaded-skills',
    text: `# Preloaded skills

These skills are already loaded for you: follow them where they apply.

${blocks.join('\n\n')}`,
  };
}
