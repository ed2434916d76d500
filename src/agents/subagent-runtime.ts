// The run-wide side of sub-agents, shared by every agent of one tree: the definitions, how deep
// and how wide the tree may grow, and what children share (resolved models, prompts, the
// project's instructions, skills and agent memory).
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { BackgroundPort, RunAgents } from '../core/background-port.js';
import type { AgentRef } from '../core/events.js';
import type { RunIds } from '../core/run-ids.js';
import type { RunKnobs } from '../core/run-knobs.js';
import type { SpawnToolContext, Tool } from '../core/tool.js';
import type { TraceContextSource } from '../core/trace-context.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import type { HandoffCheck } from '../hooks/handoff-check.js';
import type { SessionHooks } from '../hooks/session-hooks.js';
import type { ResolveModelOptions } from '../model/resolve-model.js';
import { withEnvironment } from '../prompt/environment-prompt.js';
import type { AgentMemory } from '../prompt/memory/agent-memory.js';
import type { ProjectContext } from '../prompt/project-context.js';
import type { PromptSection } from '../prompt/prompt-section.js';
import { AgentDirectory } from './agent-directory.js';
import type { AgentMcpSettings } from './agent-mcp-servers.js';
import { AgentSlots } from './agent-slots.js';
import { type ChildRun, continuedChild } from './child-run.js';
import { ForegroundChildren } from './foreground-children.js';
import type { RemoteAgentPorts, RemotePort } from './remote-port.js';
import { childPath, newAgentId, type Spawner } from './subagent-context.js';

/**
 * What the runtime is built of. The knobs (`RunKnobs`: depth, width, result size, stall timeout,
 * …) and the ports are required: a run's plan (run/) applies their defaults, once.
 */
export interface SubagentSettings
  extends Pick<
    RunKnobs,
    'maxDepth' | 'maxParallel' | 'resultMaxChars' | 'fileStateMaxEntries' | 'stallTimeoutMs'
  > {
  definitions: ReadonlyMap<string, AgentDefinition>;
  /** Where an agent's transcript is, to point a parent at the full text of a truncated result. */
  transcriptPathFor: (agentId: string) => string | undefined;
  /**
   * Turns a child's own model spec (`anthropic:claude-haiku-4-5`) into a model: `resolveModel`,
   * or what recording wraps, or a cassette's answers when replaying.
   */
  resolveModel: (spec: string, options: ResolveModelOptions) => Promise<LanguageModelV4>;
  /** How agents' own MCP servers start: trust of project files, timeouts. */
  mcp: AgentMcpSettings;
  /**
   * The date every system prompt of the run names (`YYYY-MM-DD`), taken when the run starts, so
   * a run past midnight keeps one prompt per definition, and its cache.
   */
  sessionDate: string;
  /** The session's hooks; each child runs them with its definition's own. */
  sessionHooks?: SessionHooks;
  /** Judges a child's output before it reaches its parent (after the built-in escaping). */
  handoffCheck?: HandoffCheck;
  /** Project instructions, skills and agent memory (`ProjectContext.load`). */
  projectContext: ProjectContext;
  /** Runs children remotely (`isolation: remote`, or all of them): see agents/remote-port.ts. */
  remote?: RemotePort;
  /** Where agent and task ids come from; a replay gives the recorded ones. */
  runIds: RunIds;
  /** Reaches `kind: remote` definitions (A2A agents); without it they are refused. */
  remoteAgents?: RemoteAgentPorts;
  /** The trace context A2A and ACP children send on, when the run is traced. */
  traceContext?: TraceContextSource;
  /** Children whose Agent call waits for them (the run's `sendToBackground` reaches them). */
  foreground?: ForegroundChildren;
  /**
   * Makes the run's background work (tasks/) over this runtime; without it `run_in_background`
   * is refused. A factory because the background side runs children with this runtime.
   */
  background?: (runtime: SubagentRuntime) => BackgroundPort;
  /**
   * Makes the Workflow tool (workflows/) for the main agent, when the run has workflows; no
   * sub-agent gets it, so workflows never nest.
   */
  workflowTool?: (spawner: Spawner) => Tool;
}

/** What an agent of a definition starts with besides its tools: its system prompt and memory. */
export interface AgentSetup {
  systemPrompt: string;
  /** The project's sections in that prompt, in order (a forked child is shown them elsewhere). */
  sections: PromptSection[];
  memory?: AgentMemory;
  /** Problems reported for the first agent that needed them, empty for the rest. */
  warnings: string[];
}

/** Also the run's agents as its background work sees them (`RunAgents`, core/background-port.ts). */
export class SubagentRuntime implements RunAgents {
  readonly definitions: ReadonlyMap<string, AgentDefinition>;
  readonly maxDepth: number;
  readonly slots: AgentSlots;
  readonly resultMaxChars: number;
  readonly transcriptPathFor: (agentId: string) => string | undefined;
  readonly fileStateMaxEntries: number;
  readonly stallTimeoutMs: number;
  /** Every agent of the run: names, the tree, what it takes to continue one. */
  readonly directory = new AgentDirectory();
  /** Background work (tasks/), when the run has it; without it `run_in_background` is refused. */
  readonly background: BackgroundPort | undefined;
  /** Children whose Agent call waits for them: what can be sent to the background. */
  readonly foreground: ForegroundChildren;
  /** Children on other machines (remote/), when the run has an executor; else `isolation: remote` is refused. */
  readonly remote: RemotePort | undefined;
  readonly remoteAgents: RemoteAgentPorts | undefined;
  readonly traceContext: TraceContextSource | undefined;
  /** Makes the main agent's Workflow tool, when the run has workflows. */
  readonly workflowTool: ((spawner: Spawner) => Tool) | undefined;
  readonly resolveModel: (spec: string, options: ResolveModelOptions) => Promise<LanguageModelV4>;
  readonly mcp: AgentMcpSettings;
  readonly sessionDate: string;
  readonly sessionHooks: SessionHooks | undefined;
  readonly handoffCheck: HandoffCheck | undefined;
  readonly context: ProjectContext;
  readonly runIds: RunIds;
  /** Resolved model specs, so a thousand children share one provider client. */
  readonly models = new Map<string, Promise<LanguageModelV4>>();
  readonly #setups = new Map<string, Promise<AgentSetup>>();

  constructor(settings: SubagentSettings) {
    this.definitions = settings.definitions;
    this.maxDepth = settings.maxDepth;
    this.slots = new AgentSlots(settings.maxParallel);
    this.resultMaxChars = settings.resultMaxChars;
    this.transcriptPathFor = settings.transcriptPathFor;
    this.fileStateMaxEntries = settings.fileStateMaxEntries;
    this.stallTimeoutMs = settings.stallTimeoutMs;
    this.resolveModel = settings.resolveModel;
    this.mcp = settings.mcp;
    this.sessionDate = settings.sessionDate;
    this.sessionHooks = settings.sessionHooks;
    this.handoffCheck = settings.handoffCheck;
    this.remote = settings.remote;
    this.runIds = settings.runIds;
    this.remoteAgents = settings.remoteAgents;
    this.traceContext = settings.traceContext;
    this.context = settings.projectContext;
    this.foreground = settings.foreground ?? new ForegroundChildren();
    this.workflowTool = settings.workflowTool;
    // Last: the background side is built over the runtime it belongs to, fully set up.
    this.background = settings.background?.(this);
  }

  /**
   * A definition's system prompt (its prompt, the project's sections, the environment with the
   * session's date) and memory; made once per definition and cwd for the whole run, so siblings
   * of one definition send the same bytes and share a prompt-cache entry.
   * @param skillTool whether the agent holds the Skill tool (it then sees the skills list)
   */
  setupFor(
    definition: AgentDefinition,
    cwd: string,
    { skillTool }: { skillTool: boolean },
  ): Promise<AgentSetup> {
    const key = `${definition.name}\0${cwd}\0${skillTool}`;
    const made = this.#setups.get(key);
    // Not async, and one step on a made setup: calls made together resolve in the order they
    // came, so background children launch (and take --max-parallel slots) in call order.
    if (made !== undefined) return made.then((setup) => ({ ...setup, warnings: [] }));
    const setup = this.context
      .agentContext(definition, cwd, { skillTool })
      .then(({ sections, memory, warnings }) => ({
        systemPrompt: withEnvironment(definition.prompt, {
          cwd,
          sections: sections.map((section) => section.text),
          date: this.sessionDate,
        }),
        sections,
        ...(memory && { memory }),
        warnings,
      }));
    this.#setups.set(key, setup);
    return setup;
  }

  /**
   * The id of the child an Agent (or delegate) call starts (the recorded one in a replay), and
   * its path, which its options take rather than count its parent's calls again.
   */
  newChild(
    ctx: Pick<SpawnToolContext, 'run' | 'toolCallId'>,
    type: string,
  ): { agentId: string; agentPath: string } {
    const agentPath = childPath(ctx.run.agentPath, ctx.run.messages, ctx.toolCallId, type);
    return { agentId: this.runIds.agentId(agentPath, newAgentId), agentPath };
  }

  /** The definition an Agent call names, tolerating case (`Explore` for `explore`). */
  findDefinition(name: string): AgentDefinition | undefined {
    return findDefinition(this.definitions, name);
  }

  /** An agent whose run has ended, continued in the background (SendMessage). */
  continued(agentId: string, prompt: string, owner: AgentRef): ChildRun | undefined {
    return continuedChild(this, agentId, prompt, owner);
  }

  /** A message for a remote agent that runs: false when it has ended. */
  sendRemote(agentId: string, text: string): Promise<boolean> {
    return this.remote ? this.remote.executor.send(agentId, text) : Promise.resolve(false);
  }
}

/** The definition a name means, tolerating case (`Explore` for `explore`). */
export function findDefinition(
  definitions: ReadonlyMap<string, AgentDefinition>,
  name: string,
): AgentDefinition | undefined {
  const exact = definitions.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  return [...definitions.values()].find((definition) => definition.name.toLowerCase() === lower);
}
