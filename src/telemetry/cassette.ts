// A cassette: every model call of a run's whole tree (request and response) and every tool
// result, as JSONL, keyed by the agent's path in the tree and its turn rather than by when it
// happened, so a run with parallel children replays the same way whatever their timing.
import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import type { AgentEvent } from '../core/events.js';
import { isRefusedFile, readRegularFileSync } from '../core/regular-file.js';

/** Bumped when an entry changes shape; a reader refuses cassettes newer than it knows. */
const CASSETTE_VERSION = 1;
/** 512 MiB: a recorded run's requests and answers; more cannot be replayed from memory anyway. */
const CASSETTE_MAX_BYTES = 512 * 1024 * 1024;

/** The header line: what wrote the cassette and the main agent's model. */
export interface CassetteHeader {
  type: 'cassette';
  version: number;
  created: string;
  /** `provider:model` of the main agent, used by `--replay` when no `--model` is given. */
  model?: string;
}

/** What a model call asked: enough to tell whether a replayed run asks the same. */
export interface RecordedRequest {
  prompt: LanguageModelV4Prompt;
  tools?: LanguageModelV4CallOptions['tools'];
  toolChoice?: LanguageModelV4CallOptions['toolChoice'];
}

export type RecordedContent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string };

export interface RecordedResponse {
  content: RecordedContent[];
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
}

/** One model call: the `turn`-th answered call of the agent at `path`. */
export interface ModelCallEntry {
  type: 'model';
  path: string;
  turn: number;
  /** `provider:model` that answered. */
  model: string;
  request: RecordedRequest;
  response: RecordedResponse;
}

/** One tool call's result, for `--replay-tools`. */
export interface ToolResultEntry {
  type: 'tool';
  path: string;
  toolCallId: string;
  toolName: string;
  output: string;
  isError: boolean;
}

export type CassetteEntry = ModelCallEntry | ToolResultEntry;

const entrySchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('model'),
    path: z.string().min(1),
    turn: z.number().int().min(1),
    model: z.string(),
    request: z.looseObject({ prompt: z.array(z.unknown()) }),
    response: z.looseObject({
      content: z.array(z.looseObject({ type: z.enum(['text', 'tool-call']) })),
      finishReason: z.looseObject({ unified: z.string() }),
      usage: z.looseObject({ inputTokens: z.unknown(), outputTokens: z.unknown() }),
    }),
  }),
  z.looseObject({
    type: z.literal('tool'),
    path: z.string().min(1),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.string(),
    isError: z.boolean(),
  }),
]);

const headerSchema = z.looseObject({
  type: z.literal('cassette'),
  version: z.number().int(),
  created: z.string(),
  model: z.string().optional(),
});

/** A cassette read into memory, its entries findable by key. */
export class Cassette {
  readonly header: CassetteHeader;
  readonly entries: readonly CassetteEntry[];
  readonly #calls = new Map<string, ModelCallEntry>();
  readonly #tools = new Map<string, ToolResultEntry>();

  constructor(header: CassetteHeader, entries: readonly CassetteEntry[]) {
    this.header = header;
    this.entries = entries;
    for (const entry of entries) {
      if (entry.type === 'model') this.#calls.set(callKey(entry.path, entry.turn), entry);
      else this.#tools.set(callKey(entry.path, entry.toolCallId), entry);
    }
  }

  modelCall(path: string, turn: number): ModelCallEntry | undefined {
    return this.#calls.get(callKey(path, turn));
  }

  /** How many calls the agent at `path` made when recorded. */
  turnsOf(path: string): number {
    let turns = 0;
    while (this.#calls.has(callKey(path, turns + 1))) turns++;
    return turns;
  }

  toolResult(path: string, toolCallId: string): ToolResultEntry | undefined {
    return this.#tools.get(callKey(path, toolCallId));
  }

  /** Reads a cassette file; a broken one is a ConfigError naming `file:line` and the fix. */
  static read(file: string, where = file): Cassette {
    let text: string;
    try {
      text = readRegularFileSync(file, { maxBytes: CASSETTE_MAX_BYTES }).toString('utf8');
    } catch (error) {
      if (isRefusedFile(error)) throw new ConfigError(where, error.problem, error.fix);
      throw new ConfigError(
        where,
        `cannot read the cassette: ${(error as Error).message}`,
        'give the file an earlier run wrote with --record',
      );
    }
    return Cassette.parse(text, file);
  }

  static parse(text: string, file: string): Cassette {
    const lines = text.split('\n');
    let header: CassetteHeader | undefined;
    const entries: CassetteEntry[] = [];
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const at = `${file}:${index + 1}`;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new ConfigError(at, 'not a JSON line', 'record the cassette again with --record');
      }
      if (!header) {
        const parsed = headerSchema.safeParse(json);
        if (!parsed.success) {
          throw new ConfigError(
            at,
            'not a warren cassette (the first line must be {"type":"cassette",…})',
            'give a file written by --record or recordModel()',
          );
        }
        if (parsed.data.version > CASSETTE_VERSION) {
          throw new ConfigError(
            at,
            `cassette version ${parsed.data.version} is newer than this warren reads (${CASSETTE_VERSION})`,
            'upgrade warren',
          );
        }
        header = parsed.data;
        return;
      }
      const parsed = entrySchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ConfigError(
          at,
          `malformed entry (${issue?.path.join('.') || 'entry'}: ${issue?.message})`,
          'record the cassette again with --record',
        );
      }
      entries.push(parsed.data as unknown as CassetteEntry);
    });
    if (!header) {
      throw new ConfigError(file, 'the cassette is empty', 'record one with --record <file>');
    }
    return new Cassette(header, entries);
  }
}

function callKey(path: string, key: string | number): string {
  return `${path}\0${key}`;
}

/**
 * Writes a cassette as the run goes, one line per finished call (so a crash keeps what was
 * recorded), and on `close` rewrites it sorted by path and turn, so the same run always gives
 * the same file. Without a file it only keeps the entries in memory.
 */
export class CassetteRecorder {
  readonly file: string | undefined;
  readonly header: CassetteHeader;
  readonly #entries: CassetteEntry[] = [];
  readonly #turns = new Map<string, number>();
  readonly #paths = new Map<string, string>();
  #fd: number | undefined;

  constructor(options: { file?: string; model?: string } = {}) {
    this.file = options.file;
    this.header = {
      type: 'cassette',
      version: CASSETTE_VERSION,
      created: new Date().toISOString(),
      ...(options.model === undefined ? {} : { model: options.model }),
    };
    if (this.file !== undefined) {
      this.#fd = openSync(this.file, 'w');
      this.#append(this.header);
    }
  }

  /** Records a finished model call as the next turn of the agent at `path`. */
  recordModelCall(entry: Omit<ModelCallEntry, 'type' | 'turn'>): void {
    const turn = (this.#turns.get(entry.path) ?? 0) + 1;
    this.#turns.set(entry.path, turn);
    this.#add({ type: 'model', ...entry, turn });
  }

  /** Reads the run's events for tool results; feed it every event, in stream order. */
  observe(event: AgentEvent): void {
    if (event.type === 'run_start') {
      this.#paths.set(event.agentId, event.path);
    } else if (event.type === 'tool_end') {
      const path = this.#paths.get(event.agentId);
      if (path === undefined) return;
      const { toolCallId, toolName, output, isError } = event;
      this.#add({ type: 'tool', path, toolCallId, toolName, output, isError });
    }
  }

  /** What was recorded so far, as a cassette to replay. */
  toCassette(): Cassette {
    return new Cassette(this.header, sortedEntries(this.#entries));
  }

  /** Finishes the file: sorted, flushed and closed. Safe to call twice. */
  close(): void {
    if (this.#fd === undefined || this.file === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
    const lines = [this.header, ...sortedEntries(this.#entries)].map((entry) =>
      JSON.stringify(entry),
    );
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, `${lines.join('\n')}\n`);
    renameSync(temporary, this.file);
  }

  #add(entry: CassetteEntry): void {
    this.#entries.push(entry);
    this.#append(entry);
  }

  #append(value: object): void {
    if (this.#fd !== undefined) writeSync(this.#fd, `${JSON.stringify(value)}\n`);
  }
}

/**
 * Model calls by path then turn, each agent's tool results after its calls by call id: an
 * order that does not depend on which parallel call finished first.
 */
function sortedEntries(entries: readonly CassetteEntry[]): CassetteEntry[] {
  const order = (entry: CassetteEntry): [number, number, string] =>
    entry.type === 'model' ? [0, entry.turn, ''] : [1, 0, entry.toolCallId];
  return [...entries].sort((a, b) => {
    const [rankA, turnA, idA] = order(a);
    const [rankB, turnB, idB] = order(b);
    return compare(a.path, b.path) || rankA - rankB || turnA - turnB || compare(idA, idB);
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
