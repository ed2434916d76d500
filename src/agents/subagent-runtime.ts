// The run-wide side of sub-agents, shared by every agent of one tree: the definitions, how deep
// and how wide the tree may grow, and the spawn tools (Agent, delegate_to_<name>) of each agent.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Tool } from '../tools/tool.js';
import type { AgentDefinition } from './agent-definition.js';
import { AgentSlots } from './agent-slots.js';
import { type AgentTool, createAgentTool, isAgentTool } from './agent-tool.js';
import { type ChildTools, childTools, isSpawnTool } from './child-tools.js';
import { createDelegateTool } from './delegate-tools.js';
import { withEnvironment } from './environment-prompt.js';

export interface SubagentSettings {
  definitions: ReadonlyMap<string, AgentDefinition>;
  /** Deepest sub-agent level; the main agent is depth 0. Default 3. */
  maxDepth?: number;
  /** Sub-agents running at once across the whole tree. Default 10. */
  maxParallel?: number;
  /** A child's final text is cut to this many characters for its parent. Default 5000. */
  resultMaxChars?: number;
  /** Where an agent's transcript is, to point a parent at the full text of a truncated result. */
  transcriptPathFor?: (agentId: string) => string | undefined;
  /** Snapshots a child's copy of its parent's file-state cache keeps. Default 200. */
  fileStateMaxEntries?: number;
}

export class SubagentRuntime {
  readonly definitions: ReadonlyMap<string, AgentDefinition>;
  readonly maxDepth: number;
  readonly slots: AgentSlots;
  readonly resultMaxChars: number;
  readonly transcriptPathFor: (agentId: string) => string | undefined;
  readonly fileStateMaxEntries: number;
  /** Resolved model specs, so a thousand children share one provider client. */
  readonly models = new Map<string, Promise<LanguageModelV4>>();
  readonly #agentTools = new Map<string, AgentTool>();
  readonly #delegateTools = new Map<string, Tool>();
  readonly #prompts = new Map<string, string>();

  constructor(settings: SubagentSettings) {
    this.definitions = settings.definitions;
    this.maxDepth = settings.maxDepth ?? 3;
    this.slots = new AgentSlots(settings.maxParallel ?? 10);
    this.resultMaxChars = settings.resultMaxChars ?? 5000;
    this.transcriptPathFor = settings.transcriptPathFor ?? (() => undefined);
    this.fileStateMaxEntries = settings.fileStateMaxEntries ?? 200;
  }

  /**
   * The tools of an agent at `depth` running `definition`: its parent's narrowed by the
   * definition (child-tools.ts), plus its own spawn tools, and the deny rules its permission
   * policy adds. For the main agent the "parent" is the run's tool list.
   */
  toolsFor(params: {
    depth: number;
    definition: AgentDefinition;
    parentTools: readonly Tool[];
    root?: boolean;
  }): { tools: Tool[]; denyRules: ChildTools['denyRules'] } {
    const narrowed = childTools(params.parentTools, params.definition);
    const spawn = this.spawnTools({
      depth: params.depth,
      definition: params.definition,
      parentTools: params.root ? 'root' : params.parentTools,
      mayUseAgent: narrowed.mayUseAgent,
    });
    return { tools: [...narrowed.tools, ...spawn], denyRules: narrowed.denyRules };
  }

  /**
   * The spawn tools of an agent at `depth` running `definition`. It gets the Agent tool only if
   * its parent had one and its definition does not take it away, limited to the types both
   * allow; delegate tools only if its parent could start agents at all.
   */
  spawnTools(params: {
    depth: number;
    definition: AgentDefinition | undefined;
    parentTools: readonly Tool[] | 'root';
    mayUseAgent: boolean;
  }): Tool[] {
    if (params.depth >= this.maxDepth) return [];
    const { definition, parentTools } = params;
    const parentAgent: Pick<AgentTool, 'spawnableTypes'> | undefined =
      parentTools === 'root' ? { spawnableTypes: undefined } : parentTools.find(isAgentTool);
    const parentCanSpawn = parentTools === 'root' || parentTools.some(isSpawnTool);
    const tools: Tool[] = [];
    if (parentAgent && params.mayUseAgent) {
      tools.push(
        this.#agentTool(narrowTypes(parentAgent.spawnableTypes, definition?.spawnableAgents)),
      );
    }
    if (parentCanSpawn) {
      for (const name of definition?.agents ?? []) {
        const target = this.definitions.get(name);
        if (target) tools.push(this.#delegateTool(target));
      }
    }
    return tools;
  }

  /** A definition's prompt with the environment; one string per definition and cwd, shared. */
  systemPromptFor(definition: AgentDefinition, cwd: string): string {
    const key = `${definition.name}\0${cwd}`;
    let prompt = this.#prompts.get(key);
    if (prompt === undefined) {
      prompt = withEnvironment(definition.prompt, { cwd });
      this.#prompts.set(key, prompt);
    }
    return prompt;
  }

  /** The definition an Agent call names, tolerating case (`Explore` for `explore`). */
  findDefinition(name: string): AgentDefinition | undefined {
    const exact = this.definitions.get(name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    return [...this.definitions.values()].find(
      (definition) => definition.name.toLowerCase() === lower,
    );
  }

  #agentTool(types: readonly string[] | undefined): AgentTool {
    const key = types ? types.join('\0') : '*';
    let tool = this.#agentTools.get(key);
    if (!tool) {
      tool = createAgentTool(this, types);
      this.#agentTools.set(key, tool);
    }
    return tool;
  }

  #delegateTool(target: AgentDefinition): Tool {
    let tool = this.#delegateTools.get(target.name);
    if (!tool) {
      tool = createDelegateTool(this, target);
      this.#delegateTools.set(target.name, tool);
    }
    return tool;
  }
}

/** Types both lists allow; undefined means any. */
function narrowTypes(
  parent: readonly string[] | undefined,
  own: readonly string[] | undefined,
): readonly string[] | undefined {
  if (!parent) return own;
  if (!own) return parent;
  const allowed = new Set(parent.map((name) => name.toLowerCase()));
  return own.filter((name) => allowed.has(name.toLowerCase()));
}
