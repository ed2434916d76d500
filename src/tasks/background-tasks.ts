// A run's background work as the spawn side sees it (agents/background-port.ts): the task manager
// with its local executors, the task tools, and continuing an agent that has ended (SendMessage).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEntry } from '../agents/agent-directory.js';
import type {
  AdoptedChild,
  BackgroundChild,
  BackgroundPort,
  Lend,
  RemoteBackgroundChild,
} from '../agents/background-port.js';
import { childInbox } from '../agents/subagent-context.js';
import type { SubagentRuntime } from '../agents/subagent-runtime.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { Inbox } from '../core/inbox.js';
import type { TaskRecord } from '../core/tasks.js';
import type { Tool } from '../core/tool.js';
import { bashTool } from '../tools/bash.js';
import { AdoptedAgentExecutor } from './adopted-agent-executor.js';
import { backgroundBashTool, isBuiltinBash } from './background-bash-tool.js';
import { listAgentsTool } from './list-agents-tool.js';
import { LocalAgentExecutor } from './local-agent-executor.js';
import { LocalBashExecutor } from './local-bash-executor.js';
import { RemoteAgentExecutor } from './remote-agent-executor.js';
import { sendMessageTool } from './send-message-tool.js';
import type { TaskManager } from './task-manager.js';
import { taskOutputTool } from './task-output-tool.js';
import { taskStopTool } from './task-stop-tool.js';

export interface BackgroundTasksOptions {
  /** Where background commands write their output; default a new folder under the OS temp dir. */
  outputDir?: string;
  /** The run's `onEvent`: where remote children's events are recorded (their loops ran elsewhere). */
  onEvent?: (event: AgentEvent) => void;
}

export class BackgroundTasks implements BackgroundPort {
  readonly manager: TaskManager;
  readonly runtime: SubagentRuntime;
  readonly agents: LocalAgentExecutor;
  /** Foreground children sent to the background while they ran. */
  readonly adopted: AdoptedAgentExecutor;
  readonly bash = new LocalBashExecutor();
  readonly remoteAgents: RemoteAgentExecutor;
  readonly tools: readonly Tool[];
  /** Bash with `run_in_background`, in place of the built-in Bash. */
  readonly bashTool: Tool;
  /** The built-in Bash (or a wrapper of it) with `run_in_background` added; others as they are. */
  withBackgroundBash(tool: Tool): Tool {
    if (tool === bashTool) return this.bashTool;
    return isBuiltinBash(tool) ? backgroundBashTool(this, tool) : tool;
  }
  #outputDir: string | undefined;

  constructor(
    manager: TaskManager,
    runtime: SubagentRuntime,
    options: BackgroundTasksOptions = {},
  ) {
    this.manager = manager;
    this.runtime = runtime;
    this.#outputDir = options.outputDir;
    this.agents = new LocalAgentExecutor(runtime);
    this.adopted = new AdoptedAgentExecutor(runtime);
    this.remoteAgents = new RemoteAgentExecutor(runtime, options.onEvent);
    this.tools = [
      taskOutputTool(this),
      taskStopTool(this),
      sendMessageTool(this),
      listAgentsTool(this),
    ];
    this.bashTool = backgroundBashTool(this);
  }

  /** The output folder of background commands, made on first use. */
  outputDir(): string {
    this.#outputDir ??= mkdtempSync(join(tmpdir(), 'warren-tasks-'));
    return this.#outputDir;
  }

  get signal(): AbortSignal {
    return this.manager.signal;
  }

  launch(child: BackgroundChild): TaskRecord {
    return this.manager.start(this.agents, child, {
      kind: 'local_agent',
      description: child.options.description ?? '',
      owner: child.owner,
      agentId: child.options.agentId,
      agentType: child.options.agentType,
      name: child.name,
      spec: child.restart,
    });
  }

  adopt(child: AdoptedChild): TaskRecord {
    return this.manager.start(this.adopted, child, {
      kind: 'local_agent',
      description: child.description,
      owner: child.owner,
      agentId: child.agentId,
      agentType: child.agentType,
      name: child.name,
      spec: child.restart,
    });
  }

  launchRemote(child: RemoteBackgroundChild): TaskRecord {
    return this.manager.start(this.remoteAgents, child, {
      kind: 'remote_agent',
      description: child.spec.description,
      owner: child.owner,
      agentId: child.spec.agentId,
      agentType: String(child.spec.definition.name),
      name: child.name,
      // A resumed run attaches to the same child with it (the submit is idempotent).
      spec: child.spec,
    });
  }

  /** A message for a remote agent that runs: false when it has ended. */
  sendRemote(agentId: string, text: string): Promise<boolean> {
    const port = this.runtime.remote;
    return port ? port.executor.send(agentId, text) : Promise.resolve(false);
  }

  inboxFor(agent: AgentRef, options?: { lend?: Lend }): Inbox {
    return this.manager.inboxFor(agent, options);
  }

  /**
   * Continues an agent whose run has ended with its whole conversation and `prompt` as the next
   * user message, in the background; `owner` (who asked) gets the notification.
   */
  continueAgent(entry: AgentEntry, prompt: string, owner: AgentRef): TaskRecord {
    const previous = entry.options;
    if (!previous) throw new Error(`agent ${entry.agentId} cannot be continued`);
    const definition = this.runtime.findDefinition(entry.agentType);
    const options = {
      ...previous,
      messages: entry.messages,
      signal: this.signal,
      background: true,
      // A fresh budget node under the same parent: the tree's limits still hold.
      budget:
        previous.budget?.parent?.child({
          timeMs: definition?.timeBudgetMs,
          tokens: definition?.tokenBudget,
        }) ?? previous.budget,
      inbox: childInbox(this.runtime, {
        agentId: entry.agentId,
        parentId: entry.parentId ?? owner.agentId,
        depth: entry.depth,
      }),
    };
    return this.launch({
      prompt,
      options,
      name: entry.name ?? undefined,
      background: true,
      owner,
      restart: { agentType: entry.agentType, prompt },
    });
  }

  /** Whether `callerId` may read or stop this task: its own, its descendants', or an agent it may address. */
  mayAccess(callerId: string, record: TaskRecord): boolean {
    const { directory } = this.runtime;
    if (record.owner.agentId === callerId) return true;
    if (directory.isWithin(record.owner.agentId, callerId)) return true;
    return record.agentId !== null && directory.resolve(callerId, record.agentId) !== undefined;
  }

  /** The tasks `callerId` may see, newest last: for error messages that list them. */
  visibleTo(callerId: string): TaskRecord[] {
    return this.manager.list().filter((record) => this.mayAccess(callerId, record));
  }
}
