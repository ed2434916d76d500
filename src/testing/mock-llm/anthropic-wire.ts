// The Anthropic Messages wire format: a `message` body, the `message_start` … `message_stop` SSE
// event sequence with its ping, and `{ type: 'error', error: { type, message } }` errors.
import type { MockUsage } from './mock-reply.js';
import {
  argumentPieces,
  hexId,
  type ResolvedCall,
  sseEvent,
  type WireFormat,
} from './wire-format.js';

export const anthropicWire: WireFormat = {
  toolCallIdPrefix: 'toolu_mock',
  idHeader: () => ({ 'request-id': hexId('req_') }),

  json(call) {
    const text = call.textPieces.join('');
    return {
      id: hexId('msg_'),
      type: 'message',
      role: 'assistant',
      model: call.model,
      content: [
        ...(text === '' ? [] : [{ type: 'text', text }]),
        ...call.toolCalls.map((toolCall) => ({
          type: 'tool_use',
          id: toolCall.id,
          name: toolCall.name,
          input: JSON.parse(toolCall.arguments),
        })),
      ],
      stop_reason: anthropicStopReason(call),
      stop_sequence: null,
      usage: { ...anthropicInputUsage(call.usage), output_tokens: call.usage.output },
    };
  },

  sseEvents(call) {
    const events = [
      sseEvent('message_start', {
        message: {
          id: hexId('msg_'),
          type: 'message',
          role: 'assistant',
          model: call.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...anthropicInputUsage(call.usage), output_tokens: 1 },
        },
      }),
    ];
    let index = 0;
    const startBlock = (block: object) => {
      events.push(sseEvent('content_block_start', { index, content_block: block }));
      // The real API sends one ping right after the first block starts.
      if (index === 0) events.push(sseEvent('ping', {}));
    };
    const delta = (payload: object) =>
      events.push(sseEvent('content_block_delta', { index, delta: payload }));
    const stopBlock = () => events.push(sseEvent('content_block_stop', { index: index++ }));

    if (call.textPieces.length > 0) {
      startBlock({ type: 'text', text: '' });
      // One string per distinct piece: a reply repeating a piece a thousand times holds it once.
      const textDeltas = new Map<string, string>();
      for (const piece of call.textPieces) {
        let event = textDeltas.get(piece);
        if (event === undefined) {
          event = sseEvent('content_block_delta', {
            index,
            delta: { type: 'text_delta', text: piece },
          });
          textDeltas.set(piece, event);
        }
        events.push(event);
      }
      stopBlock();
    }
    for (const toolCall of call.toolCalls) {
      startBlock({ type: 'tool_use', id: toolCall.id, name: toolCall.name, input: {} });
      delta({ type: 'input_json_delta', partial_json: '' });
      for (const piece of argumentPieces(toolCall)) {
        delta({ type: 'input_json_delta', partial_json: piece });
      }
      stopBlock();
    }
    events.push(
      sseEvent('message_delta', {
        delta: { stop_reason: anthropicStopReason(call), stop_sequence: null },
        usage: { ...anthropicInputUsage(call.usage), output_tokens: call.usage.output },
      }),
      sseEvent('message_stop', {}),
    );
    return events;
  },

  errorBody(status, message) {
    return {
      type: 'error',
      error: { type: anthropicErrorType(status), message },
      request_id: hexId('req_'),
    };
  },

  streamErrorEvent(message) {
    return sseEvent('error', { error: { type: 'overloaded_error', message } });
  },
};

function anthropicStopReason(call: ResolvedCall): string {
  if (call.reply.truncated) return 'max_tokens';
  return call.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function anthropicInputUsage(usage: Required<MockUsage>) {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}
