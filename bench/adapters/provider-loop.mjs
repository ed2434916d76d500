// Diagnostic: the baseline's thirty-line loop, but with model access through the AI SDK
// provider warren uses (@ai-sdk/openai-compatible: doGenerate for JSON, doStream for SSE).
// It shows how much of warren's overhead the provider sets as a floor, and what is the loop's.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
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
// `judged: false`: a reference point, not a product; the targets apply to warren only.
export const meta = {
  name: 'provider-loop',
  label: 'raw loop over @ai-sdk/openai-compatible',
  packages: ['@ai-sdk/openai-compatible', '@ai-sdk/provider-utils'],
  alwaysStreams: false,
  judged: false,
};

const fn = (name, description, inputSchema) => ({
  type: 'function',
  name,
  description,
  inputSchema,
});
const PARENT_TOOLS = [fn(SUBAGENT_TOOL_NAME, SUBAGENT_TOOL_DESCRIPTION, TASK_SCHEMA)];
const CHILD_TOOLS = [fn(LOOKUP_TOOL_NAME, LOOKUP_TOOL_DESCRIPTION, LOOKUP_SCHEMA)];

const models = new Map();
function modelFor(ctx) {
  let model = models.get(ctx.baseURL);
  if (!model) {
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: ctx.baseURL,
      apiKey: ctx.apiKey,
      includeUsage: true,
    });
    model = provider.chatModel(ctx.model);
    models.set(ctx.baseURL, model);
  }
  return model;
}

/** One model call; the reply's content parts as the provider spec has them. */
async function complete(ctx, prompt, tools) {
  const options = { prompt, tools, toolChoice: { type: 'auto' } };
  if (!ctx.stream) return (await modelFor(ctx).doGenerate(options)).content;
  const { stream } = await modelFor(ctx).doStream(options);
  const content = [];
  let text = '';
  for await (const part of stream) {
    if (part.type === 'text-delta') text += part.delta;
    else if (part.type === 'tool-call') content.push(part);
    else if (part.type === 'error') throw part.error;
  }
  return text ? [{ type: 'text', text }, ...content] : content;
}

async function agentLoop(ctx, { system, prompt, tools, impls, maxTurns }) {
  const messages = [
    { role: 'system', content: system },
    { role: 'user', content: [{ type: 'text', text: prompt }] },
  ];
  for (let turn = 0; turn < maxTurns; turn++) {
    const content = await complete(ctx, messages, tools);
    const calls = content
      .filter((part) => part.type === 'tool-call')
      .map((part) => ({ ...part, input: JSON.parse(part.input) }));
    const texts = content.filter((part) => part.type === 'text');
    messages.push({ role: 'assistant', content: [...texts, ...calls] });
    if (calls.length === 0) return texts.map((part) => part.text).join('');
    const results = await Promise.all(calls.map((call) => impls[call.toolName](call.input)));
    messages.push({
      role: 'tool',
      content: calls.map((call, i) => ({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'text', value: String(results[i]) },
      })),
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
