// The main agent's model of `warren workflow run|resume`: for the main agent, not a model but a
// driver that makes one Workflow call and then reports its output (no model call is paid for
// it); for every other agent (items inherit the main agent's model, restarted ones too), the
// session's real model. So the run is an ordinary session: transcripts, task store, --resume.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { ScriptedModel } from '../../model/scripted-model.js';

/** Begins the main agent's prompt: the driver answers only a conversation that starts with it. */
export const DRIVER_PROMPT = '[warren workflow driver]';

const NO_USAGE = { input: 0, output: 0 };

export class WorkflowDriver implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: LanguageModelV4['supportedUrls'];
  readonly #input: Record<string, unknown>;
  readonly #model: LanguageModelV4;
  /** Unique to this process: a resumed session's earlier calls are not taken for this one. */
  readonly #callId: string;

  constructor(input: Record<string, unknown>, nonce: string, model: LanguageModelV4) {
    this.#input = input;
    this.#model = model;
    this.#callId = `call_workflow_${nonce}`;
    // Prices and usage reports name the model the items run on.
    this.provider = model.provider;
    this.modelId = model.modelId;
    this.supportedUrls = model.supportedUrls;
  }

  doGenerate(options: LanguageModelV4CallOptions): PromiseLike<LanguageModelV4GenerateResult> {
    return this.#isMain(options)
      ? this.#turn(options).doGenerate(options)
      : this.#model.doGenerate(options);
  }

  doStream(options: LanguageModelV4CallOptions): PromiseLike<LanguageModelV4StreamResult> {
    return this.#isMain(options)
      ? this.#turn(options).doStream(options)
      : this.#model.doStream(options);
  }

  /**
   * The driver's prompt opens the main agent's conversation, or, in a session a person or a
   * model began (`warren -p` with the Workflow tool) whose run is resumed, comes later in it.
   * An item's conversation never holds it: items start with their own prompt, unforked.
   */
  #isMain(options: LanguageModelV4CallOptions): boolean {
    return options.prompt.some(
      (message) =>
        message.role === 'user' &&
        message.content
          .map((part) => (part.type === 'text' ? part.text : ''))
          .join('')
          .startsWith(DRIVER_PROMPT),
    );
  }

  #turn(options: LanguageModelV4CallOptions): ScriptedModel {
    const output = this.#output(options);
    const turn =
      output === undefined
        ? {
            toolCalls: [{ id: this.#callId, name: 'Workflow', input: this.#input }],
            usage: NO_USAGE,
          }
        : { text: output, usage: NO_USAGE };
    return new ScriptedModel({ turns: [turn] });
  }

  /** The output of this process's Workflow call, once it is in the conversation. */
  #output(options: LanguageModelV4CallOptions): string | undefined {
    for (const message of options.prompt) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) {
        if (
          part.type === 'tool-result' &&
          part.toolCallId === this.#callId &&
          'value' in part.output
        ) {
          return String(part.output.value);
        }
      }
    }
    return undefined;
  }
}
