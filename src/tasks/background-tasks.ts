// A run's background work as the spawn side sees it (core/background-port.ts): the task manager
// with its executors, the task tools, and continuing an agent that has ended (SendMessage). The
// run's agents it reaches only through the `RunAgents` port: it never imports agents/.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackgroundPort, Lend, RunAgents } from '../core/background-port.js';
import type { ChildTask } from '../core/child-task.js';
import type { AgentRef } from '../core/events.js';
import type { Inbox } from '../core/inbox.js';
import type { TaskRecord } from '../core/tasks.js';
import type { Tool } from '../core/tool.js';
import { bashTool } from '../tools/bash.js';
import { AgentTaskExecutor } from './agent-task-run.js';
import { backgroundBashTool, isBuiltinBash } from './background-bash-tool.js';
import { listAgentsTool } from './list-agents-tool.js';
import type { LocalBashExecutor } from './local-bash-executor.js';
import { sendMessageTool } from './send-message-tool.js';
import type { TaskManager } from './task-manager.js';
import { taskOutputTool } from './task-output-tool.js';
import { taskStopTool } from './task-stop-tool.js';

export interface BackgroundTasksOptions {
  /** Where background commands write their output; default a new folder under the OS temp dir. */
  outputDir?: string;
}

export class BackgroundTasks implements BackgroundPort {
  readonly manager: TaskManager;
  /** The run's agents (agents/ implements the port). */
  readonly runtime: RunAgents;
  /** Children in this process, however they came to the background. */
  readonly agents = new AgentTaskExecutor('local_agent');
  /** Children on a worker or behind an A2A agent. */
  readonly remoteAgents = new AgentTaskExecutor('remote_agent');
  readonly tools: readonly Tool[];
  /** Bash with `run_in_background`, in place of the built-in Bash. */
  readonly bashTool: Tool;
  /** The built-in Bash (or a wrapper of it) with `run_in_background` added; others as they are. */
  withBackgroundBash(tool: Tool): Tool {
    if (tool === bashTool) return this.bashTool;
    return isBuiltinBash(tool) ? backgroundBashTool(this, tool) : tool;
  }
  #outputDir: string | undefined;
  #bash: LocalBashExecutor | undefined;

  constructor(manager: TaskManager, runtime: RunAgents, options: BackgroundTasksOptions = {}) {
    this.manager = manager;
    this.runtime = runtime;
    this.#outputDir = options.outputDir;
    this.tools = [
      taskOutputTool(this),
      taskStopTool(this),
      sendMessageTool(this),
      listAgentsTool(this),
    ];
    this.bashTool = backgroundBashTool(this);
  }

  /** What runs background commands, loaded with the first one. */
  async bash(): Promise<LocalBashExecutor> {
    const { LocalBashExecutor } = await import('./local-bash-executor.js');
    this.#bash ??= new LocalBashExecutor();
    return this.#bash;
  }

  /** The output folder of background commands, made on first use. */
  outputDir(): string {
    this.#outputDir ??= mkdtempSync(join(tmpdir(), 'warren-tasks-'));
    return this.#outputDir;
  }

  get signal(): AbortSignal {
    return this.manager.signal;
  }

  launch(child: ChildTask): TaskRecord {
    const meta = child.meta();
    return this.manager.start(
      meta.kind === 'remote_agent' ? this.remoteAgents : this.agents,
      child,
      meta,
    );
  }

  /** A message for a remote agent that runs: false when it has ended. */
  sendRemote(agentId: string, text: string): Promise<boolean> {
    return this.runtime.sendRemote(agentId, text);
  }

  inboxFor(agent: AgentRef, options?: { lend?: Lend }): Inbox {
    return this.manager.inboxFor(agent, options);
  }

  /**
   * Continues an agent whose run has ended with its whole conversation and `prompt` as the next
   * user message, in the background; `owner` (who asked) gets the notification. Undefined when
   * it cannot be continued.
   */
  continueAgent(agentId: string, prompt: string, owner: AgentRef): TaskRecord | undefined {
    const child = this.runtime.continued(agentId, prompt, owner);
    return child && this.launch(child);
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
