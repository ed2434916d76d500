// The Anthropic Messages API as the benchmark's mock speaks it: reading a request into the
// conversation the script looks at, and writing a decision back as a `message` (JSON) or as
// the `message_start` … `message_stop` SSE events, with cache usage in both.
import { randomBytes } from 'node:crypto';

const newId = (prefix) => prefix + randomBytes(9).toString('hex');

const blocksOf = (content) =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : Array.isArray(content)
      ? content
      : [];

const textOf = (content) =>
  blocksOf(content)
    .map((block) => (typeof block?.text === 'string' ? block.text : ''))
    .join('');

/**
 * The parts of a conversation the script looks at. `ownTurns` counts the assistant replies
 * since the last user message with text: for a child forked from a conversation, its own
 * turns, not its parent's.
 */
export function readAnthropicConversation(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const system =
    typeof body.system === 'string'
      ? body.system
      : textOf(Array.isArray(body.system) ? body.system : []);
  let firstUser = '';
  let lastUserText = '';
  let assistantTurns = 0;
  let ownTurns = 0;
  const toolResults = [];
  for (const message of messages) {
    if (message?.role === 'assistant') {
      assistantTurns++;
      ownTurns++;
      continue;
    }
    for (const block of blocksOf(message?.content)) {
      if (block?.type === 'tool_result') toolResults.push(textOf(block.content));
      if (block?.type === 'text') {
        firstUser ||= block.text;
        lastUserText = block.text;
        ownTurns = 0;
      }
    }
  }
  const tools = (Array.isArray(body.tools) ? body.tools : [])
    .map((tool) => ({ name: tool?.name, schema: tool?.input_schema }))
    .filter((tool) => typeof tool.name === 'string');
  return { system, firstUser, lastUserText, assistantTurns, ownTurns, toolResults, tools };
}

/** The reply body (JSON) or events (SSE) for a decision `{ text?, calls? }`. */
export function anthropicReply(decision, { model, usage }) {
  const calls = decision.calls ?? [];
  const content = [
    ...(decision.text === undefined ? [] : [{ type: 'text', text: decision.text }]),
    ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args })),
  ];
  const stopReason = calls.length > 0 ? 'tool_use' : 'end_turn';
  const inputUsage = {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
  const id = newId('msg_');
  const json = {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { ...inputUsage, output_tokens: usage.output },
  };
  const events = [
    [
      'message_start',
      {
        message: {
          ...json,
          content: [],
          stop_reason: null,
          usage: { ...inputUsage, output_tokens: 1 },
        },
      },
    ],
  ];
  content.forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    events.push(['content_block_start', { index, content_block: start }]);
    const delta =
      block.type === 'text'
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
    events.push(['content_block_delta', { index, delta }]);
    events.push(['content_block_stop', { index }]);
  });
  events.push(
    [
      'message_delta',
      {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
    ],
    ['message_stop', {}],
  );
  const sse = events.map(
    ([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`,
  );
  return { json, sse };
}

export function anthropicError(message) {
  return { type: 'error', error: { type: 'invalid_request_error', message } };
}
