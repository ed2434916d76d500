// What a scripted turn's `match` sees of a model call: the system prompt, the last user message,
// the last tool result, the tools offered and the calling agent, read once per call, and the test
// a `match` makes of them.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import { patternMatcher, type ScriptMatch, toolNameMatcher } from './scripted-script.js';

/** What a turn's `match` is tested against, read once per call. */
export interface RequestView {
  system: string;
  prompt: string;
  lastToolResult: string | undefined;
  tools: string[];
  agent: string;
}

/** The test a turn's `match` makes of a call: every condition it names must fit. */
export function requestMatcher(match: ScriptMatch | undefined): (request: RequestView) => boolean {
  if (!match) return () => true;
  const tests: Array<(request: RequestView) => boolean> = [];
  if (match.system !== undefined) {
    const fits = patternMatcher(match.system);
    tests.push((request) => fits(request.system));
  }
  if (match.prompt !== undefined) {
    const fits = patternMatcher(match.prompt);
    tests.push((request) => fits(request.prompt));
  }
  if (match.lastToolResult !== undefined) {
    const fits = patternMatcher(match.lastToolResult);
    tests.push((request) => request.lastToolResult !== undefined && fits(request.lastToolResult));
  }
  if (match.agent !== undefined) {
    const fits = patternMatcher(match.agent);
    tests.push((request) => fits(request.agent));
  }
  for (const tool of match.tools ?? []) {
    const fits = toolNameMatcher(tool);
    tests.push((request) => request.tools.some(fits));
  }
  return (request) => tests.every((test) => test(request));
}

/** What `match` is tested against in this call. */
export function viewRequest(options: LanguageModelV4CallOptions): RequestView {
  const { prompt } = options;
  const lastUser = prompt.findLast((message) => message.role === 'user');
  return {
    system: prompt
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n\n'),
    prompt: lastUser ? messageText(lastUser) : '',
    lastToolResult: lastToolResultText(prompt),
    tools: (options.tools ?? []).map((tool) => tool.name),
    agent: options.headers?.['x-warren-agent-path'] ?? '',
  };
}

function lastToolResultText(prompt: LanguageModelV4Prompt): string | undefined {
  for (const message of prompt.toReversed()) {
    if (message.role !== 'tool' && message.role !== 'assistant') continue;
    const result = message.content.findLast((part) => part.type === 'tool-result');
    if (result?.type === 'tool-result') return toolResultText(result.output);
  }
  return undefined;
}

/** All the text a message carries, tool inputs and results included: what tokens are paid for. */
export function messageText(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  const texts: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'reasoning') texts.push(part.text);
    else if (part.type === 'tool-call') texts.push(JSON.stringify(part.input));
    else if (part.type === 'tool-result') texts.push(toolResultText(part.output));
  }
  return texts.join('\n');
}

function toolResultText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'execution denied';
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  }
}
