// replayModel(): a LanguageModelV4 that answers every call from a cassette and makes no network
// call. Each call is looked up by the calling agent's path and turn, so parallel children get
// their own answers whatever order they ask in; a call that does not ask what was recorded
// fails the whole run, naming the agent, the turn and the first difference.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { RunIds } from '../core/run-ids.js';
import { FatalToolError } from '../core/tool.js';
import type { Cassette, ModelCallEntry, RecordedRequest } from './cassette.js';
import { DeliveryGate } from './delivery-gate.js';
import { firstDifference } from './first-difference.js';
import { callerPath, recordedRequest } from './record-model.js';

/**
 * A replayed run asked something the cassette does not hold. Fatal: it ends every agent up to
 * the root, as a diverged run cannot be replayed any further.
 */
export class ReplayMismatchError extends FatalToolError {
  readonly path: string;
  /** The model turn that diverged; undefined for a tool call. */
  readonly turn: number | undefined;

  constructor(path: string, turn: number | undefined, problem: string) {
    super(`replay: ${path}${turn === undefined ? '' : `, turn ${turn}`}: ${problem}`);
    this.name = 'ReplayMismatchError';
    this.path = path;
    this.turn = turn;
  }
}

/**
 * The state of one replay: which turn each agent is at, which recorded task ids are taken.
 * Models made from it share it.
 */
export class Replay {
  readonly cassette: Cassette;
  readonly #turns = new Map<string, number>();
  readonly #tasksTaken = new Map<string, number>();
  /** When replayed background agents may end. */
  readonly gate: DeliveryGate;
  /** The first mismatch, if any: what a CLI reports. */
  mismatch: ReplayMismatchError | undefined;

  constructor(cassette: Cassette) {
    this.cassette = cassette;
    this.gate = new DeliveryGate(cassette);
  }

  /**
   * A model answering from the cassette, presenting itself as `spec` (`provider:model`), by
   * default the main model of the recording, so names, prices and prompts come out the same.
   */
  model(spec: string | undefined = this.cassette.header.model): LanguageModelV4 {
    const name = spec ?? 'replay:cassette';
    const colon = name.indexOf(':');
    const provider = colon === -1 ? 'replay' : name.slice(0, colon);
    const modelId = colon === -1 ? name : name.slice(colon + 1);
    return {
      specificationVersion: 'v4',
      provider,
      modelId,
      supportedUrls: {},
      doGenerate: async (options) => {
        const { response } = await this.#answer(options);
        const content: LanguageModelV4Content[] = response.content.map((part) => ({ ...part }));
        return {
          content,
          finishReason: response.finishReason,
          usage: response.usage,
          warnings: [],
        };
      },
      doStream: async (options) => ({ stream: streamOf(await this.#answer(options)) }),
    };
  }

  /**
   * Ids as the recording had them: an agent at a recorded path gets its recorded id, a task the
   * next recorded id of its key; anything the recording lacks (a cassette of an older warren,
   * a run gone another way) gets a fresh one.
   */
  runIds(): RunIds {
    const { agentIds, taskIds } = this.cassette;
    return {
      agentId: (path, fresh) => agentIds.get(path) ?? fresh(),
      taskId: (key, fresh) => {
        const taken = this.#tasksTaken.get(key) ?? 0;
        this.#tasksTaken.set(key, taken + 1);
        return taskIds.get(key)?.[taken] ?? fresh();
      },
    };
  }

  /**
   * The recorded call for this request; throws a ReplayMismatchError when there is none. A
   * background agent's last answer waits until its notification is due (delivery-gate.ts).
   */
  async #answer(options: LanguageModelV4CallOptions): Promise<ModelCallEntry> {
    options.abortSignal?.throwIfAborted();
    const path = callerPath(options);
    const turn = (this.#turns.get(path) ?? 0) + 1;
    this.#turns.set(path, turn);
    this.gate.asked(path, turn);
    const entry = this.cassette.modelCall(path, turn);
    if (!entry) {
      const recorded = this.cassette.turnsOf(path);
      throw this.#fail(
        path,
        turn,
        recorded === 0
          ? 'no agent at this path was recorded'
          : `the recording has only ${recorded} turn${recorded === 1 ? '' : 's'} for this agent`,
      );
    }
    const difference = firstDifference(
      comparable(entry.request),
      comparable(recordedRequest(options)),
    );
    if (difference) {
      throw this.#fail(
        path,
        turn,
        `the request differs from the recording at ${difference.path || 'the top'}: recorded ${difference.recorded}, now ${difference.actual}`,
      );
    }
    const agentId = this.cassette.agentIds.get(path);
    if (agentId && turn === this.cassette.turnsOf(path)) {
      await this.gate.held(agentId, options.abortSignal);
    }
    return entry;
  }

  #fail(path: string, turn: number, problem: string): ReplayMismatchError {
    const error = new ReplayMismatchError(path, turn, problem);
    this.mismatch ??= error;
    return error;
  }
}

/** A model answering from `cassette`; see `Replay.model`. */
export function replayModel(cassette: Cassette, options: { model?: string } = {}): LanguageModelV4 {
  return new Replay(cassette).model(options.model);
}

/**
 * The request as compared. What changes on every run and says nothing about whether the run
 * went the same way is left out: the date in an agent's environment section, a task's duration
 * in its notification, where a session's transcripts are (a replay is a session of its own, its
 * folder maybe another), and the commit a worktree's leftover changes were saved as (it has the
 * time in it).
 */
function comparable(request: RecordedRequest): RecordedRequest {
  return JSON.parse(
    JSON.stringify(request)
      .replace(/(- Date: )\d{4}-\d{2}-\d{2}/g, '$1<date>')
      .replace(/\bduration \d+(\.\d+)? s\b/g, 'duration <s>')
      .replace(/(committed as )[0-9a-f]{7,40}\b/g, '$1<commit>')
      // A session's files, wherever its folder is (a replay may keep its sessions elsewhere).
      .replace(
        /[^\s"'<>()]*\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{8}\b/g,
        '<session>',
      )
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{8}\b/g, '<session>'),
  ) as RecordedRequest;
}

function streamOf(entry: ModelCallEntry): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  entry.response.content.forEach((part, index) => {
    if (part.type === 'text') {
      const id = `text-${index}`;
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      );
    } else {
      parts.push({ ...part });
    }
  });
  parts.push({
    type: 'finish',
    finishReason: entry.response.finishReason,
    usage: entry.response.usage,
  });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
