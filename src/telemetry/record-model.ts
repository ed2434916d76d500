// recordModel(): a LanguageModelV4 that passes every call to the real model and writes each
// finished call (request and response) to a cassette, under the calling agent's path, which
// the loop sends with every request as the `x-warren-agent-path` header.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { modelName } from '../model/pricing.js';
import type { CassetteRecorder, RecordedContent, RecordedRequest } from './cassette.js';

/** Finishes the loop treats as a broken reply and retries: not an answer worth keeping. */
const BROKEN = new Set(['error', 'interrupted']);

/** The header the loop names the calling agent's path with. */
const AGENT_PATH_HEADER = 'x-warren-agent-path';

/** The path of the agent making a call; `main` for a caller that does not say. */
export function callerPath(options: LanguageModelV4CallOptions): string {
  return options.headers?.[AGENT_PATH_HEADER] ?? 'main';
}

/** What of a call a cassette keeps: the conversation, the tools and the tool choice. */
export function recordedRequest(options: LanguageModelV4CallOptions): RecordedRequest {
  // A JSON round trip drops what a file cannot hold (undefined, functions) on both sides alike.
  return JSON.parse(
    JSON.stringify({
      prompt: options.prompt,
      tools: options.tools,
      toolChoice: options.toolChoice,
    }),
  ) as RecordedRequest;
}

/**
 * Wraps `model` so every successful call is recorded; failed attempts (a retried 529) are not,
 * so a replay answers each turn with what finally came back.
 */
export function recordModel(model: LanguageModelV4, recorder: CassetteRecorder): LanguageModelV4 {
  const name = modelName(model);
  const record = (
    options: LanguageModelV4CallOptions,
    content: RecordedContent[],
    finishReason: LanguageModelV4FinishReason,
    usage: LanguageModelV4Usage,
  ) =>
    recorder.recordModelCall({
      path: callerPath(options),
      model: name,
      request: recordedRequest(options),
      response: { content, finishReason, usage },
    });
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      const result = await model.doGenerate(options);
      if (!BROKEN.has(result.finishReason.unified)) {
        record(options, recordedContent(result.content), result.finishReason, result.usage);
      }
      return result;
    },
    async doStream(options) {
      const result = await model.doStream(options);
      const content: RecordedContent[] = [];
      let text: { type: 'text'; text: string } | undefined;
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === 'text-delta') {
              if (!text) {
                text = { type: 'text', text: '' };
                content.push(text);
              }
              text.text += part.delta;
            } else if (part.type === 'text-end') {
              text = undefined;
            } else if (part.type === 'tool-call') {
              const { toolCallId, toolName, input } = part;
              content.push({ type: 'tool-call', toolCallId, toolName, input });
            } else if (part.type === 'finish' && !BROKEN.has(part.finishReason.unified)) {
              record(options, content, part.finishReason, part.usage);
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

function recordedContent(content: readonly LanguageModelV4Content[]): RecordedContent[] {
  const kept: RecordedContent[] = [];
  for (const part of content) {
    if (part.type === 'text') kept.push({ type: 'text', text: part.text });
    if (part.type === 'tool-call') {
      const { toolCallId, toolName, input } = part;
      kept.push({ type: 'tool-call', toolCallId, toolName, input });
    }
  }
  return kept;
}
