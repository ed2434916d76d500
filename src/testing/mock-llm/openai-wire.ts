// The OpenAI Chat Completions wire format: a `chat.completion` body, `chat.completion.chunk`
// SSE deltas ending in `data: [DONE]`, and `{ error: { message, type, code } }` errors.
import { randomUUID } from 'node:crypto';
import type { MockUsage } from './mock-reply.js';
import {
  argumentPieces,
  hexId,
  nowSeconds,
  type ResolvedCall,
  sseData,
  type WireFormat,
} from './wire-format.js';

export const openAiChatWire: WireFormat = {
  toolCallIdPrefix: 'call_mock',
  idHeader: () => ({ 'x-request-id': hexId('req_') }),

  json(call) {
    const text = call.textPieces.join('');
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: nowSeconds(),
      model: call.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && call.toolCalls.length > 0 ? null : text,
            refusal: null,
            ...(call.toolCalls.length > 0 && {
              tool_calls: call.toolCalls.map((toolCall) => ({
                id: toolCall.id,
                type: 'function',
                function: { name: toolCall.name, arguments: toolCall.arguments },
              })),
            }),
            annotations: [],
          },
          logprobs: null,
          finish_reason: openAiFinishReason(call),
        },
      ],
      usage: openAiUsage(call.usage),
      service_tier: 'default',
      system_fingerprint: 'fp_mock',
    };
  },

  sseEvents(call) {
    const base = {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion.chunk',
      created: nowSeconds(),
      model: call.model,
      service_tier: 'default',
      system_fingerprint: 'fp_mock',
    };
    // With include_usage, OpenAI adds `usage: null` to every chunk and sends the usage last.
    const usageField = call.includeStreamUsage ? { usage: null } : {};
    const chunk = (delta: object, finishReason: string | null = null) =>
      sseData({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...usageField,
      });

    const events = [chunk({ role: 'assistant', content: '', refusal: null })];
    // One string per distinct piece: a reply repeating a piece a thousand times holds it once.
    const textChunks = new Map<string, string>();
    for (const piece of call.textPieces) {
      let event = textChunks.get(piece);
      if (event === undefined) {
        event = chunk({ content: piece });
        textChunks.set(piece, event);
      }
      events.push(event);
    }
    for (const [index, toolCall] of call.toolCalls.entries()) {
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: toolCall.id,
              type: 'function',
              function: { name: toolCall.name, arguments: '' },
            },
          ],
        }),
      );
      for (const piece of argumentPieces(toolCall)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    events.push(chunk({}, openAiFinishReason(call)));
    if (call.includeStreamUsage) {
      events.push(sseData({ ...base, choices: [], usage: openAiUsage(call.usage) }));
    }
    events.push('data: [DONE]\n\n');
    return events;
  },

  errorBody(status, message) {
    const [type, code] = openAiErrorKind(status);
    return { error: { message, type, param: null, code } };
  },

  streamErrorEvent(message) {
    return sseData({ error: { message, type: 'server_error', param: null, code: null } });
  },
};

function openAiFinishReason(call: ResolvedCall): string {
  if (call.reply.truncated) return 'length';
  return call.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

/** OpenAI's prompt_tokens include the cached ones. */
function openAiUsage(usage: Required<MockUsage>) {
  const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: usage.output,
    total_tokens: promptTokens + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function openAiErrorKind(status: number): [type: string, code: string | null] {
  if (status === 401) return ['invalid_request_error', 'invalid_api_key'];
  if (status === 404) return ['invalid_request_error', 'model_not_found'];
  if (status === 429) return ['requests', 'rate_limit_exceeded'];
  if (status >= 500) return ['server_error', null];
  return ['invalid_request_error', null];
}
