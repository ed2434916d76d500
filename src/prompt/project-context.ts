// What an agent is told about its project besides its definition's prompt: the project
// instructions (AGENTS.md, CLAUDE.md, WARREN.md), the skills and the skills it preloads, and its
// memory. Read once per session and kept, so every agent of one definition gets the same bytes
// (and siblings share the provider's prompt cache); warnings are reported once each.
import { homedir } from 'node:os';
import type { Tool } from '../core/tool.js';
import { warrenHome } from '../core/warren-home.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { instructionsSection } from './instructions/instructions-section.js';
import {
  loadProjectInstructions,
  type ProjectInstructions,
} from './instructions/project-instructions.js';
import { type AgentMemory, type LoadedMemory, loadAgentMemory } from './memory/agent-memory.js';
import { memorySection } from './memory/memory-section.js';
import type { PromptSection } from './prompt-section.js';
import { loadSkillCatalog, type Skill, type SkillCatalog } from './skills/skill-catalog.js';
import { createSkillTool } from './skills/skill-tool.js';
import { preloadedSkillsSection, skillsListSection } from './skills/skills-section.js';

export interface ProjectContextOptions {
  /** The session's project folder: project skills, and project and local agent memory. */
  projectDir: string;
  /** Default: `$WARREN_HOME`, else `~/.warren` (user instructions, skills and memory). */
  warrenHome?: string;
  /** Default: the user's home folder (`@~/…` imports of the user's own instructions). */
  homeDir?: string;
  /** Read the project instructions into prompts. Default: false. */
  instructions?: boolean;
  /** Find skills: the Skill tool and the list in every prompt. Default: false. */
  skills?: boolean;
}

/** An agent's part of its system prompt, and the memory folder it may write. */
export interface AgentContext {
  /** In the order they go into the prompt, after the definition's own text. */
  sections: PromptSection[];
  memory?: AgentMemory;
  /** Problems not reported before in this session, for `warning` events. */
  warnings: string[];
}

const NO_SKILLS: SkillCatalog = { skills: new Map(), warnings: [] };

export class ProjectContext {
  readonly projectDir: string;
  readonly warrenHome: string;
  readonly homeDir: string;
  readonly instructions: boolean;
  readonly skills: SkillCatalog;
  /** The session's Skill tool; undefined when there are no skills. */
  readonly skillTool: Tool | undefined;
  readonly #instructions = new Map<string, Promise<ProjectInstructions>>();
  readonly #memories = new Map<string, Promise<LoadedMemory>>();
  readonly #reported = new Set<string>();

  /** Finds the skills when `skills` is on; everything else is read when an agent first needs it. */
  static async load(options: ProjectContextOptions): Promise<ProjectContext> {
    const home = options.warrenHome ?? warrenHome();
    const homeDir = options.homeDir ?? homedir();
    const skills = options.skills
      ? await loadSkillCatalog({ projectDir: options.projectDir, warrenHome: home, homeDir })
      : NO_SKILLS;
    return new ProjectContext(options, skills);
  }

  /** Without `load`: no skills, whatever `options.skills` says. */
  constructor(options: ProjectContextOptions, skills: SkillCatalog = NO_SKILLS) {
    this.projectDir = options.projectDir;
    this.warrenHome = options.warrenHome ?? warrenHome();
    this.homeDir = options.homeDir ?? homedir();
    this.instructions = options.instructions === true;
    this.skills = skills;
    this.skillTool = skills.skills.size > 0 ? createSkillTool(skills) : undefined;
  }

  /**
   * The sections of an agent's prompt: project instructions (unless its definition omits them),
   * the skills list (when it holds the Skill tool), the skills it preloads, and its memory.
   * @param definition undefined for a main agent without a definition
   */
  async agentContext(
    definition: AgentDefinition | undefined,
    cwd: string,
    options: { skillTool: boolean },
  ): Promise<AgentContext> {
    const warnings: string[] = [...this.skills.warnings];
    const sections: (PromptSection | undefined)[] = [];
    if (this.instructions && definition?.omitProjectInstructions !== true) {
      const found = await this.#instructionsFor(cwd);
      warnings.push(...found.warnings);
      sections.push(instructionsSection(found.files));
    }
    if (options.skillTool) sections.push(skillsListSection(this.skills.skills.values()));
    if (definition?.skills?.length) {
      const preloaded = this.#preloaded(definition, warnings);
      sections.push(preloadedSkillsSection(preloaded));
    }
    let memory: AgentMemory | undefined;
    if (definition?.memory !== undefined) {
      const loaded = await this.#memoryOf(definition.name, definition.memory);
      if (loaded.warning !== undefined) warnings.push(loaded.warning);
      memory = loaded.memory;
      if (memory) sections.push(memorySection(memory));
    }
    return {
      sections: sections.filter((section) => section !== undefined),
      ...(memory && { memory }),
      warnings: this.#unreported(warnings),
    };
  }

  #instructionsFor(cwd: string): Promise<ProjectInstructions> {
    let found = this.#instructions.get(cwd);
    if (found === undefined) {
      found = loadProjectInstructions({
        cwd,
        warrenHome: this.warrenHome,
        homeDir: this.homeDir,
      });
      this.#instructions.set(cwd, found);
    }
    return found;
  }

  #memoryOf(name: string, scope: AgentMemory['scope']): Promise<LoadedMemory> {
    const key = `${scope}\0${name}`;
    let memory = this.#memories.get(key);
    if (memory === undefined) {
      memory = loadAgentMemory(name, scope, {
        projectDir: this.projectDir,
        warrenHome: this.warrenHome,
      });
      this.#memories.set(key, memory);
    }
    return memory;
  }

  #preloaded(definition: AgentDefinition, warnings: string[]): Skill[] {
    const found: Skill[] = [];
    for (const name of definition.skills ?? []) {
      const skill = this.skills.skills.get(name.toLowerCase());
      if (skill) found.push(skill);
      else {
        const where = definition.source.path ?? `agent "${definition.name}"`;
        const known = [...this.skills.skills.keys()].join(', ') || 'none';
        warnings.push(
          `${where}: \`skills\` names "${name}", which is not a skill here (skills: ${known}); not preloaded`,
        );
      }
    }
    return found;
  }

  #unreported(warnings: readonly string[]): string[] {
    const fresh = warnings.filter((warning) => !this.#reported.has(warning));
    for (const warning of fresh) this.#reported.add(warning);
    return [...new Set(fresh)];
  }
}
