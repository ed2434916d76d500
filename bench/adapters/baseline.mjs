// The raw-fetch reference: global fetch and a thirty-line agent loop, Promise.all over the tool
// calls of a turn. No framework: everything another adapter spends above this is overhead.
import {
  CHILD_INSTRUCTIONS,
  LOOKUP_RESULT,
  LOOKUP_SCHEMA,
  LOOKUP_TOOL_DESCRIPTION,
  LOOKUP_TOOL_NAME,
  PARENT_INSTRUCTIONS,
  PARENT_PROMPT,
  SUBAGENT_TOOL_DESCRIPTION,
  SUBAGENT_TOOL_NAME,
  TASK_SCHEMA,
} from '../lib/workload.mjs';

// Read by the driver without importing the file: keep it a plain object literal.
export const meta = {
  name: 'baseline',
  label: 'raw fetch loop',
  packages: [],
  alwaysStreams: false,
};

const fn = (name, description, parameters) => ({
  type: 'function',
  function: { name, description, parameters },
});
const PARENT_TOOLS = [fn(SUBAGENT_TOOL_NAME, SUBAGENT_TOOL_DESCRIPTION, TASK_SCHEMA)];
const CHILD_TOOLS = [fn(LOOKUP_TOOL_NAME, LOOKUP_TOOL_DESCRIPTION, LOOKUP_SCHEMA)];

async function complete(ctx, messages, tools) {
  const body = { model: ctx.model, messages, tools, stream: ctx.stream };
  if (ctx.stream) body.stream_options = { include_usage: true };
  const res = await fetch(`${ctx.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.apiKey}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  if (!ctx.stream) return (await res.json()).choices[0].message;
  // The least SSE handling that works: accumulate content and tool-call deltas.
  const message = { role: 'assistant', content: '', tool_calls: [] };
  let buffer = '';
  for await (const text of res.body.pipeThrough(new TextDecoderStream())) {
    buffer += text;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 2);
      if (!line.startsWith('data:') || line === 'data: [DONE]') continue;
      const delta = JSON.parse(line.slice(5)).choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) message.content += delta.content;
      for (const part of delta.tool_calls ?? []) {
        message.tool_calls[part.index] ??= {
          id: part.id,
          type: 'function',
          function: { name: '', arguments: '' },
        };
        const call = message.tool_calls[part.index];
        if (part.function?.name) call.function.name += part.function.name;
        if (part.function?.arguments) call.function.arguments += part.function.arguments;
      }
    }
  }
  if (message.tool_calls.length === 0) delete message.tool_calls;
  return message;
}

async function agentLoop(ctx, { system, prompt, tools, impls, maxTurns }) {
  const messages = [
    { role: 'system', content: system },
    { role: 'user', content: prompt },
  ];
  for (let turn = 0; turn < maxTurns; turn++) {
    const message = await complete(ctx, messages, tools);
    messages.push(message);
    if (!message.tool_calls?.length) return message.content;
    const results = await Promise.all(
      message.tool_calls.map((call) =>
        impls[call.function.name](JSON.parse(call.function.arguments)),
      ),
    );
    message.tool_calls.forEach((call, i) => {
      messages.push({ role: 'tool', tool_call_id: call.id, content: String(results[i]) });
    });
  }
  throw new Error(`max turns (${maxTurns}) exceeded`);
}

export default async function run(ctx) {
  const childImpls = { [LOOKUP_TOOL_NAME]: async () => LOOKUP_RESULT };
  const runChild = ({ task }) =>
    agentLoop(ctx, {
      system: CHILD_INSTRUCTIONS,
      prompt: task,
      tools: CHILD_TOOLS,
      impls: childImpls,
      maxTurns: ctx.childMaxTurns,
    });
  return agentLoop(ctx, {
    system: PARENT_INSTRUCTIONS,
    prompt: PARENT_PROMPT,
    tools: PARENT_TOOLS,
    impls: { [SUBAGENT_TOOL_NAME]: runChild },
    maxTurns: ctx.parentMaxTurns,
  });
}
