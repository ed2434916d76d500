// Test fixture: a model that decides each answer from the request it gets, for scripts that must
// echo ids only known at run time (a task id, an agent id). Each answer is one scripted turn.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { ScriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';

/** What an answer is chosen from: the whole request as text, and its last user message. */
export interface ReactiveRequest {
  /** Every message of the request as JSON text: search it for ids and markers. */
  text: string;
  /** The text of the first user message: the task of the agent asking. */
  firstUser: string;
  /** The text of the last user message. */
  lastUser: string;
  /** The text of the last tool result, if any. */
  lastToolResult: string | undefined;
  options: LanguageModelV4CallOptions;
}

export class ReactiveModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'scripted';
  readonly modelId = 'reactive';
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly calls: ReactiveRequest[] = [];
  readonly #answer: (request: ReactiveRequest) => ScriptTurn;

  constructor(answer: (request: ReactiveRequest) => ScriptTurn) {
    this.#answer = answer;
  }

  doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    return this.#turn(options).doGenerate(options);
  }

  doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return this.#turn(options).doStream(options);
  }

  #turn(options: LanguageModelV4CallOptions): ScriptedModel {
    const request = viewOf(options);
    this.calls.push(request);
    const turn = this.#answer(request);
    // Unique call ids across answers: each answer is a fresh one-turn script.
    const toolCalls = turn.toolCalls?.map((call, index) => ({
      ...call,
      id: call.id ?? `call_${this.calls.length}_${index + 1}`,
    }));
    return new ScriptedModel({ turns: [{ ...turn, toolCalls, match: undefined }] });
  }
}

function viewOf(options: LanguageModelV4CallOptions): ReactiveRequest {
  const userText = (message: LanguageModelV4CallOptions['prompt'][number] | undefined) =>
    message?.role === 'user'
      ? message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : '';
  let lastToolResult: string | undefined;
  for (const message of options.prompt.toReversed()) {
    if (message.role !== 'tool') continue;
    const part = message.content.findLast((candidate) => candidate.type === 'tool-result');
    if (part?.type === 'tool-result' && 'value' in part.output) {
      lastToolResult = String(part.output.value);
      break;
    }
  }
  return {
    text: JSON.stringify(options.prompt),
    firstUser: userText(options.prompt.find((message) => message.role === 'user')),
    lastUser: userText(options.prompt.findLast((message) => message.role === 'user')),
    lastToolResult,
    options,
  };
}
