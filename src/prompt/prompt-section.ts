// A named part of a system prompt that holds for the whole session (project instructions, the
// skills list, preloaded skills, agent memory). Named, so each can be found, tested and placed.

export interface PromptSection {
  name: 'project-instructions' | 'skills' | 'preloaded-skills' | 'agent-memory';
  text: string;
}
