// How many sub-agents may run at once under the process's open-file limit (`ulimit -n`): each
// running agent holds descriptors (its transcript, a model connection, the files and processes
// of its tools), and past the limit agents cannot start and Reads fail on "too many open files".
// --max-parallel is lowered to what fits, with one line on stderr saying so; a run whose agents
// could not start all the same fails, saying why.
import { readFileSync } from 'node:fs';
import type { AgentEvent } from '../../core/events.js';

/** Descriptors one running agent may hold at once: transcript, connection, a tool's files. */
export const DESCRIPTORS_PER_AGENT = 4;
/** Descriptors warren itself needs besides its agents: stdio, the task store, MCP servers, … */
export const DESCRIPTORS_RESERVED = 32;

/** The soft limit on open files, or undefined when there is none or it cannot be read. */
export function openFileLimit(platform = process.platform): number | undefined {
  if (platform === 'linux') {
    try {
      const limits = readFileSync('/proc/self/limits', 'utf8');
      return numberOf(/^Max open files\s+(\S+)/m.exec(limits)?.[1]);
    } catch {
      return undefined;
    }
  }
  if (platform === 'win32') return undefined;
  // Only here (macOS and other Unixes) is node:child_process loaded at start.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const shell = spawnSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2_000 });
  return numberOf(shell.stdout?.trim());
}

function numberOf(text: string | undefined): number | undefined {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * `maxParallel`, or as many agents as `limit` descriptors hold (at least 1), with the warning
 * that says so.
 */
export function parallelWithin(
  maxParallel: number,
  limit: number | undefined,
): { maxParallel: number; warning?: string } {
  if (limit === undefined) return { maxParallel };
  const fits = Math.max(1, Math.floor((limit - DESCRIPTORS_RESERVED) / DESCRIPTORS_PER_AGENT));
  if (maxParallel <= fits) return { maxParallel };
  const needed = maxParallel * DESCRIPTORS_PER_AGENT + DESCRIPTORS_RESERVED;
  return {
    maxParallel: fits,
    warning: `--max-parallel ${maxParallel} needs about ${needed} open files, and the limit is ${limit} (ulimit -n): running at most ${fits} agent${fits === 1 ? '' : 's'} at once; raise the limit (ulimit -n ${Math.max(needed, 4096)}) to run more`,
  };
}

/** `maxParallel` within the open-file limit, saying on stderr when it had to be lowered. */
export function maxParallelWithin(
  maxParallel: number,
  io: { stderr: (text: string) => void },
): number {
  const parallel = parallelWithin(maxParallel, openFileLimit());
  if (parallel.warning) io.stderr(`warren: warning: ${parallel.warning}\n`);
  return parallel.maxParallel;
}

const TOO_MANY_FILES = /\b(EMFILE|ENFILE)\b|too many open files/i;

/**
 * Tool calls that failed because the process ran out of descriptors all the same (a tool that
 * opens many, a limit lower than the reserve): agents that could not start fail the run.
 */
export class OpenFileFailures {
  #agents = 0;
  #tools = 0;

  observe(event: AgentEvent): void {
    if (event.type !== 'tool_end' || !event.isError || !TOO_MANY_FILES.test(event.output)) return;
    if (event.toolName === 'Agent' || event.toolName.startsWith('delegate_to_')) this.#agents++;
    else this.#tools++;
  }

  /** Agents could not start: the run fails even if its main agent went on without them. */
  get agentsFailed(): boolean {
    return this.#agents > 0;
  }

  /** One line for stderr, or undefined when nothing failed on it. */
  report(limit: number | undefined): string | undefined {
    if (this.#agents + this.#tools === 0) return undefined;
    const what = [
      this.#agents > 0 && `${this.#agents} agent${this.#agents === 1 ? '' : 's'} could not start`,
      this.#tools > 0 && `${this.#tools} tool call${this.#tools === 1 ? '' : 's'} failed`,
    ].filter(Boolean);
    const ulimit = limit === undefined ? '' : ` (ulimit -n is ${limit})`;
    return `${what.join(' and ')} on "too many open files"${ulimit}: raise the limit with ulimit -n, or lower --max-parallel`;
  }
}
