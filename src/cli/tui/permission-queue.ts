// Permission questions from every agent of the tree, answered one at a time (the session policy's
// `canUseTool`), the foreground's first; an "always allow" goes into the tree's decision store and
// settles at once every waiting question it covers.

import type {
  PermissionAnswer,
  PermissionPrompt,
} from '../../permissions/create-permission-policy.js';
import type { DecisionStore } from '../../permissions/decision-store.js';

export interface AskingAgent {
  agentId: string;
  agentType: string;
  /** What the agent was asked to do; empty for the main agent. */
  description: string;
  depth: number;
  background: boolean;
}

export interface PendingPermission {
  id: number;
  prompt: PermissionPrompt;
  agent: AskingAgent;
}

interface Waiting extends PendingPermission {
  settle(answer: PermissionAnswer): void;
}

export interface PermissionQueueOptions {
  /** The run's shared store: "always allow" answers are remembered here. */
  store: DecisionStore;
  /** The asking agent's description and whether it runs in the background, when known. */
  describe?: (agentId: string) => { description: string; background: boolean } | undefined;
  /** Called whenever the questions change. */
  onChange?: () => void;
}

export class PermissionQueue {
  readonly #waiting: Waiting[] = [];
  readonly #options: PermissionQueueOptions;
  #nextId = 1;

  constructor(options: PermissionQueueOptions) {
    this.#options = options;
  }

  /** The `canUseTool` callback: resolves when the person answers, or denies when the run stops. */
  readonly ask = (prompt: PermissionPrompt): Promise<PermissionAnswer> => {
    const known = this.#options.describe?.(prompt.agent.agentId);
    const agent: AskingAgent = {
      agentId: prompt.agent.agentId,
      agentType: prompt.agent.agentType,
      description: known?.description ?? '',
      depth: prompt.agent.depth,
      // Background as the run says (a background child and all below it), or as the screen
      // shows it (a foreground child sent to the background while it ran).
      background: prompt.agent.background === true || known?.background === true,
    };
    return new Promise((resolve) => {
      const waiting: Waiting = {
        id: this.#nextId++,
        prompt,
        agent,
        settle: (answer) => {
          prompt.signal.removeEventListener('abort', onAbort);
          const index = this.#waiting.indexOf(waiting);
          if (index !== -1) this.#waiting.splice(index, 1);
          resolve(answer);
          this.#options.onChange?.();
        },
      };
      const onAbort = () =>
        waiting.settle({
          behavior: 'deny',
          message: 'The run stopped before permission was given.',
        });
      if (prompt.signal.aborted) {
        onAbort();
        return;
      }
      prompt.signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiting);
      this.#options.onChange?.();
    });
  };

  /** The question to show now: the oldest from the foreground, else the oldest from the background. */
  current(): PendingPermission | undefined {
    return this.foreground() ?? this.#waiting[0];
  }

  /** The oldest question from an agent that someone waits for: it takes the prompt's place. */
  foreground(): PendingPermission | undefined {
    return this.#waiting.find((waiting) => !waiting.agent.background);
  }

  /** Every question waiting, oldest first. */
  pending(): readonly PendingPermission[] {
    return this.#waiting;
  }

  allowOnce(id: number): void {
    this.#find(id)?.settle({ behavior: 'allow' });
  }

  /** Allows the call and, from now on, every call the rule covers, in every agent of the tree. */
  allowAlways(id: number, rule: string): void {
    const waiting = this.#find(id);
    if (!waiting) return;
    // Remembered now (the policy would do it once this answer arrives) so that the questions
    // already waiting which the rule covers are settled with it.
    this.#options.store.remember(rule);
    waiting.settle({ behavior: 'allow', remember: rule });
    for (const other of [...this.#waiting]) {
      const { prompt } = other;
      const target = { toolName: prompt.tool.name, subject: prompt.subject, cwd: prompt.cwd };
      if (this.#options.store.allows(target)) other.settle({ behavior: 'allow' });
    }
  }

  /** Denies the call; the model reads the message, and the person's note when there is one. */
  deny(id: number, note = ''): void {
    const waiting = this.#find(id);
    if (!waiting) return;
    const because = note.trim() ? ` They said: ${note.trim()}` : '';
    waiting.settle({
      behavior: 'deny',
      message: `The user did not allow ${waiting.prompt.call}.${because}`,
    });
  }

  /** Denies everything still waiting: the session is ending. */
  denyAll(): void {
    for (const waiting of [...this.#waiting]) {
      waiting.settle({
        behavior: 'deny',
        message: 'The session ended before permission was given.',
      });
    }
  }

  #find(id: number): Waiting | undefined {
    return this.#waiting.find((waiting) => waiting.id === id);
  }
}
