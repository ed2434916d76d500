// The factory of the tools that start agents (Agent, delegate_to_<name>) and of each agent's tool
// list. One per run: an Agent tool for a given set of types is built once and shared by the tree.
import type { Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { type AgentTool, createAgentTool, isAgentTool } from './agent-tool.js';
import { type AgentToolList, childTools, isSpawnTool } from './child-tools.js';
import { createDelegateTool } from './delegate-tools.js';
import type { Spawner } from './subagent-context.js';
import type { SubagentRuntime } from './subagent-runtime.js';

export class SpawnTools {
  readonly #spawner: Spawner;
  readonly #agentTools = new Map<string, AgentTool>();
  readonly #delegateTools = new Map<string, Tool>();
  #workflowTool: Tool | undefined;
  /**
   * Each agent's list, per parent list (one array for a whole turn's calls), definition and
   * depth: the thousand children a turn starts share one, rather than filtering and parsing
   * rules a thousand times. Read-only to those who get it.
   */
  readonly #lists = new WeakMap<
    readonly Tool[],
    Map<AgentDefinition, Map<number, AgentToolList>>
  >();

  constructor(runtime: SubagentRuntime) {
    this.#spawner = { runtime, toolsFor: (params) => this.toolsFor(params) };
  }

  get runtime(): SubagentRuntime {
    return this.#spawner.runtime;
  }

  /**
   * The tools of an agent at `depth` running `definition`: its parent's narrowed by the
   * definition (child-tools.ts), plus its own spawn tools, and the deny rules its permission
   * policy adds. For the main agent (`root`) the "parent" is the run's tool list.
   */
  toolsFor(params: {
    depth: number;
    definition: AgentDefinition;
    parentTools: readonly Tool[];
    root?: boolean;
  }): AgentToolList {
    if (params.root) return this.#listFor(params);
    let byDefinition = this.#lists.get(params.parentTools);
    if (!byDefinition) {
      byDefinition = new Map();
      this.#lists.set(params.parentTools, byDefinition);
    }
    let byDepth = byDefinition.get(params.definition);
    if (!byDepth) {
      byDepth = new Map();
      byDefinition.set(params.definition, byDepth);
    }
    let list = byDepth.get(params.depth);
    if (!list) {
      list = this.#listFor(params);
      byDepth.set(params.depth, list);
    }
    return list;
  }

  #listFor(params: {
    depth: number;
    definition: AgentDefinition;
    parentTools: readonly Tool[];
    root?: boolean;
  }): AgentToolList {
    const narrowed = childTools(params.parentTools, params.definition);
    const spawn = this.spawnTools({
      depth: params.depth,
      definition: params.definition,
      parentTools: params.root ? 'root' : params.parentTools,
      mayUseAgent: narrowed.mayUseAgent,
    });
    return {
      // Frozen: shared by every agent of this definition and depth (the loop keeps one lookup
      // table per frozen list, agent-loop.ts, rather than one per agent).
      tools: Object.freeze([...narrowed.tools, ...spawn]),
      denyRules: narrowed.denyRules,
      askRules: narrowed.askRules,
    };
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
    if (params.depth >= this.runtime.maxDepth) return [];
    const { definition, parentTools } = params;
    const parentAgent: Pick<AgentTool, 'spawnableTypes'> | undefined =
      parentTools === 'root' ? { spawnableTypes: undefined } : parentTools.find(isAgentTool);
    const parentCanSpawn = parentTools === 'root' || parentTools.some(isSpawnTool);
    const tools: Tool[] = [];
    if (parentAgent && params.mayUseAgent) {
      tools.push(
        this.#agentTool(narrowTypes(parentAgent.spawnableTypes, definition?.spawnableAgents)),
        ...(this.runtime.background?.tools ?? []),
      );
    }
    // The main agent alone gets Workflow, when it may start agents at all: a workflow's agents
    // never start workflows.
    if (parentTools === 'root' && params.mayUseAgent && this.runtime.workflowTool) {
      this.#workflowTool ??= this.runtime.workflowTool(this.#spawner);
      tools.push(this.#workflowTool);
    }
    if (parentCanSpawn) {
      for (const name of definition?.agents ?? []) {
        const target = this.runtime.definitions.get(name);
        if (target) tools.push(this.#delegateTool(target));
      }
    }
    return tools;
  }

  #agentTool(types: readonly string[] | undefined): AgentTool {
    const key = types ? types.join('\0') : '*';
    let tool = this.#agentTools.get(key);
    if (!tool) {
      tool = createAgentTool(this.#spawner, types);
      this.#agentTools.set(key, tool);
    }
    return tool;
  }

  #delegateTool(target: AgentDefinition): Tool {
    let tool = this.#delegateTools.get(target.name);
    if (!tool) {
      tool = createDelegateTool(this.#spawner, target);
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
