// The main agent of `warren workflow run|resume`: not a model, a driver that makes one Workflow
// call and then reports its output, so the run is an ordinary session (transcripts, task store,
// --resume) whose items are the main agent's background children, and no model call is paid for it.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { ScriptedModel } from '../model/scripted-model.js';

export class WorkflowDriver implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'warren';
  readonly modelId = 'workflow-driver';
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #input: Record<string, unknown>;
  /** Unique to this process: a resumed session's earlier calls are not taken for this one. */
  readonly #callId: string;

  constructor(input: Record<string, unknown>, nonce: string) {
    this.#input = input;
    this.#callId = `call_workflow_${nonce}`;
  }

  doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    return this.#turn(options).doGenerate(options);
  }

  doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return this.#turn(options).doStream(options);
  }

  #turn(options: LanguageModelV4CallOptions): ScriptedModel {
    const output = this.#output(options);
    const turn =
      output === undefined
        ? { toolCalls: [{ id: this.#callId, name: 'Workflow', input: this.#input }] }
        : { text: output };
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
