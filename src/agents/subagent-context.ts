// What a child gets from its parent, decided in one place (DESIGN.md "What a child gets"):
// fresh or forked messages (a forked child keeps its parent's system prompt and tool list, for
// the prompt cache), narrowed tools, a derived signal and budget, a copy of the file state, the
// shared permission decisions, the parent's cwd or a git worktree of its own, its model or its
// own, the session's hooks with its definition's own (never its parent's), its output schema,
// and from its definition the project's instructions, its skills and its memory.
import { getRandomValues } from 'node:crypto';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { AcpCommand } from '../acp/acp-child.js';
import type { Inbox } from '../core/inbox.js';
import type { Message } from '../core/messages.js';
import type { SpawnToolContext, Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { compileOutputSchema } from '../definitions/output-schema.js';
import type { AgentLoopOptions } from '../loop/agent-loop.js';
import { aliasSpec, isModelAlias } from '../model/model-alias.js';
import type { Effort, ModelSettings } from '../model/model-settings.js';
import { memoryTools } from '../prompt/memory/memory-tools.js';
import { agentHookRunner } from './agent-hooks.js';
import type { AgentToolList } from './child-tools.js';
import type { ChildWorkspace } from './child-worktree.js';
import { type ForkContext, forkDirective, forkedTurns, forkMessages } from './fork-context.js';
import type { AgentSetup, SubagentRuntime } from './subagent-runtime.js';

/** A child's turns unless its definition says otherwise. */
export const DEFAULT_CHILD_MAX_TURNS = 20;

export interface SubagentRequest {
  definition: AgentDefinition;
  prompt: string;
  description: string;
  /** From the Agent call; wins over the definition's model. */
  model?: string;
  /** From the Agent call; wins over the definition's effort. */
  effort?: Effort;
  /** `false`: fresh; `true`: the parent's whole conversation; N: its last N turns. */
  forkContext: ForkContext;
  /** From a delegate call's task spec. */
  timeBudgetMs?: number;
  /** Runs without its parent waiting for it (`run_in_background`, a `background` definition). */
  background?: boolean;
  /** An agent restarted after a crash keeps its id (and so its transcript) and its path. */
  agentId?: string;
  agentPath?: string;
  /** `worktree`: the child works in a git worktree of its own (from the call or its definition). */
  isolation?: 'worktree';
  /** The child runs on another machine, through the run's RemotePort (agents/remote-port.ts). */
  remote?: boolean;
  /** What that worktree branches from: `head` (the default) or a ref. */
  worktreeBase?: string;
}

/** A new child's id: also its worktree's folder and branch name, so it stays path-safe. */
export function newAgentId(): string {
  if (idBitsUsed === idBits.length) {
    getRandomValues(idBits);
    idBitsUsed = 0;
  }
  return `agent_${idBits[idBitsUsed++]!.toString(16).padStart(8, '0')}`;
}

/**
 * 32 random bits per id (8 hex digits, as the first 8 of a random UUID), drawn 256 ids at a
 * time: a UUID per child made a 36-character string to keep 8 of it.
 */
const idBits = new Uint32Array(256);
let idBitsUsed = idBits.length;

export type SubagentOptions = AgentLoopOptions & {
  agentId: string;
  model: LanguageModelV4;
  /** Where it works and what it reaches, its place in the tree: always given, never defaulted. */
  cwd: string;
  allowedDirs: readonly string[];
  parentId: string;
  depth: number;
  agentType: string;
  agentPath: string;
  /** A `kind: acp` definition's command: the child is that external ACP agent, not a loop. */
  acp?: AcpCommand;
};

/** What a child is derived from: the calling tool's context, or the main agent on a resume. */
export type ParentView = Pick<
  SpawnToolContext,
  'run' | 'cwd' | 'allowedDirs' | 'fileState' | 'agent' | 'toolCallId'
>;

/** What the tools that start agents hold: the run-wide state, and how a child's tools are made. */
export interface Spawner {
  readonly runtime: SubagentRuntime;
  toolsFor(params: {
    depth: number;
    definition: AgentDefinition;
    parentTools: readonly Tool[];
  }): AgentToolList;
}

/** A child's options and first message, and what its parent's stream says before it starts. */
export interface SubagentStart {
  options: SubagentOptions;
  /** Its task, or for a forked child the hand-over with it. */
  prompt: string;
  /** Problems with the project's instructions, skills or the child's memory, said once a session. */
  warnings: string[];
}

/**
 * The child's options. With a `workspace` (its own worktree) it works there: its cwd, allowed
 * directories and permission edge are the worktree's, and its prompt says so; otherwise it works
 * where its parent does, a worktree included (a parent's worktree is its children's too).
 */
export async function createSubagentContext(
  spawner: Spawner,
  request: SubagentRequest,
  ctx: ParentView,
  placement: { agentId?: string; agentPath?: string; workspace?: ChildWorkspace } = {},
): Promise<SubagentStart> {
  const { runtime } = spawner;
  const { run } = ctx;
  const { definition } = request;
  const { workspace } = placement;
  const depth = ctx.agent.depth + 1;
  const granted = spawner.toolsFor({ depth, definition, parentTools: run.tools });
  const { denyRules, askRules } = granted;
  const skillTool = granted.tools.some((tool) => tool.name === 'Skill');
  const cwd = workspace?.cwd ?? ctx.cwd;
  const setup = await runtime.setupFor(definition, cwd, { skillTool });
  const { memory, warnings } = setup;
  const { prompt, conversation } = childConversation(request, setup, run, workspace);
  const memoryDir = memory?.dir;
  const agentId = request.agentId ?? placement.agentId ?? newAgentId();
  const background = request.background === true || ctx.agent.background === true;
  const ref = { agentId, parentId: ctx.agent.agentId, depth };
  const tools =
    memoryDir === undefined
      ? granted.tools
      : [...granted.tools, ...memoryTools(granted.tools, run.tools, memoryDir)];
  const baseDirs = workspace?.allowedDirs ?? ctx.allowedDirs;
  const permissions = run.permissions?.derive
    ? run.permissions.derive({
        mode: definition.permissionMode,
        deny: denyRules,
        ask: askRules,
        ...(memoryDir !== undefined && { memoryDir }),
      })
    : run.permissions;
  const options: SubagentOptions = {
    ...run.inherited,
    model: await childModel(runtime, request, ctx),
    ...conversation,
    tools,
    cwd,
    allowedDirs: memoryDir === undefined ? baseDirs : [...baseDirs, memoryDir],
    // At least one turn, so a child started on its parent's last turn can still answer.
    maxTurns: Math.max(1, Math.min(definition.maxTurns ?? DEFAULT_CHILD_MAX_TURNS, run.turnsLeft)),
    budget: run.budget.child({
      timeMs: minDefined(definition.timeBudgetMs, request.timeBudgetMs),
      tokens: definition.tokenBudget,
    }),
    // A background child follows the run, not the turn that started it.
    signal: request.background && runtime.background ? runtime.background.signal : run.cancelSignal,
    permissions: workspace ? workspace.confine(permissions) : permissions,
    fileState: ctx.fileState.clone(runtime.fileStateMaxEntries),
    ...ref,
    agentPath:
      request.agentPath ??
      placement.agentPath ??
      childPath(run.agentPath, run.messages, ctx.toolCallId, definition.name),
    parentToolCallId: ctx.toolCallId,
    agentType: definition.name,
    description: request.description,
    hooks: agentHookRunner(runtime.sessionHooks, definition, { subagent: true }),
    outputSchema: definition.outputSchema && compileOutputSchema(definition.outputSchema),
    modelSettings: modelSettingsOf(definition, request.effort),
    background,
    inbox: childInbox(runtime, ref),
    ...(definition.kind === 'acp' &&
      definition.command && {
        acp: {
          command: definition.command,
          args: definition.args ?? [],
          env: definition.env ?? {},
        },
      }),
  };
  return { options, prompt, warnings };
}

/** Its effort (the call's, else its definition's), temperature and cache lifetime. */
export function modelSettingsOf(
  definition: AgentDefinition,
  effort: Effort | undefined,
): ModelSettings | undefined {
  const chosen = effort ?? definition.effort;
  const { temperature, cacheTtl } = definition;
  // Most children set none: nothing to make for them.
  if (chosen === undefined && temperature === undefined && cacheTtl === undefined) return undefined;
  return {
    ...(chosen !== undefined && { effort: chosen }),
    ...(temperature !== undefined && { temperature }),
    ...(cacheTtl !== undefined && { cacheTtl }),
  };
}

/**
 * A child's inbox. While it waits for its own background work, its slot is lent to that work,
 * and its stall watchdog knows it is waiting on purpose, not stalled.
 */
export function childInbox(
  runtime: SubagentRuntime,
  ref: { agentId: string; parentId: string; depth: number },
): Inbox | undefined {
  return runtime.background?.inboxFor(ref, {
    lend: async (signal, work) => {
      runtime.directory.waiting(ref.agentId, true);
      try {
        return await runtime.slots.lendWhile(ref.agentId, signal, work);
      } finally {
        runtime.directory.waiting(ref.agentId, false);
      }
    },
  });
}

/**
 * How the child's conversation starts. A fresh child: its own system prompt (its worktree's
 * note after it) and its task. A forked child: its parent's system prompt and messages, shown
 * its parent's tools (calls of one its definition does not grant are refused), and a first
 * message with what its own system prompt would have added (fork-context.ts).
 */
function childConversation(
  request: SubagentRequest,
  setup: AgentSetup,
  run: SpawnToolContext['run'],
  workspace: ChildWorkspace | undefined,
): {
  prompt: string;
  conversation: Pick<AgentLoopOptions, 'systemPrompt' | 'messages' | 'shownTools'>;
} {
  const turns = forkedTurns(request.forkContext);
  if (turns === undefined) {
    const systemPrompt = workspace
      ? `${setup.systemPrompt}\n\n${workspace.promptNote}`
      : setup.systemPrompt;
    return { prompt: request.prompt, conversation: { systemPrompt } };
  }
  const messages = forkMessages(run.messages, turns);
  const prompt = forkDirective({
    definition: request.definition,
    task: request.prompt,
    sections: setup.sections.map((section) => section.text),
    systemPrompt: messages
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n\n'),
    workspace,
  });
  return { prompt, conversation: { messages, shownTools: run.shownTools } };
}

/**
 * A child's path: its parent's, the spawning tool with its number among the parent's calls of
 * that tool (in the order the model wrote them, not the order they ran), and its type, e.g.
 * `main/Agent#2/explore`. The same conversation gives the same paths, however the children's
 * timing falls: what a cassette keys recorded calls by.
 */
export function childPath(
  parentPath: string,
  parentMessages: readonly Message[],
  toolCallId: string,
  agentType: string,
): string {
  const type = agentType.replaceAll('/', '_');
  const spawnedBy = callLabelsOf(parentMessages).get(toolCallId);
  // A tool called outside a model turn (a test calling it directly) is named by its id.
  return `${parentPath}/${spawnedBy ?? toolCallId}/${type}`;
}

/** The tool calls of a conversation counted so far: what `childPath` reads. */
interface CallLabels {
  /** Messages counted, and the parts of the last of them (the one a turn may still extend). */
  messages: number;
  lastParts: number;
  seen: Map<string, number>;
  /** Each call's id → `Tool#n`. */
  labels: Map<string, string>;
}

/**
 * Per conversation, counted once and then only what was appended: a parent that starts 1,000
 * children in one message would otherwise count its 1,000 calls for each of them.
 */
const callLabels = new WeakMap<readonly Message[], CallLabels>();

function callLabelsOf(messages: readonly Message[]): Map<string, string> {
  let counted = callLabels.get(messages);
  const last = counted && messages[counted.messages - 1];
  if (
    !counted ||
    messages.length < counted.messages ||
    (last !== undefined && last.role === 'assistant' && last.content.length !== counted.lastParts)
  ) {
    counted = { messages: 0, lastParts: 0, seen: new Map(), labels: new Map() };
    callLabels.set(messages, counted);
  }
  for (let at = counted.messages; at < messages.length; at++) {
    const message = messages[at]!;
    counted.lastParts = message.role === 'assistant' ? message.content.length : 0;
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const count = (counted.seen.get(part.toolName) ?? 0) + 1;
      counted.seen.set(part.toolName, count);
      // A resumed history may repeat an id from an earlier run; the latest call is this one.
      counted.labels.set(part.toolCallId, `${part.toolName}#${count}`);
    }
  }
  counted.messages = messages.length;
  return counted.labels;
}

/**
 * `inherit` (or nothing) is the parent's model object itself; an alias means a Claude model,
 * so it is the parent's model unless the session runs on Anthropic; anything else is a spec.
 * Not async: most children inherit their parent's model, and need no promise of it.
 */
function childModel(
  runtime: SubagentRuntime,
  request: SubagentRequest,
  ctx: ParentView,
): LanguageModelV4 | Promise<LanguageModelV4> {
  const parent = ctx.run.model;
  const wanted = request.model ?? request.definition.model;
  if (!wanted || wanted === 'inherit') return parent;
  const spec = isModelAlias(wanted) ? aliasSpec(wanted, parent.provider) : wanted;
  if (!spec) return parent;
  let model = runtime.models.get(spec);
  if (!model) {
    const source = request.model ? 'Agent model' : `agent ${request.definition.name}: model`;
    model = runtime.resolveModel(spec, { baseUrl: ctx.run.inherited.baseUrl, source });
    runtime.models.set(spec, model);
  }
  return model;
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}
