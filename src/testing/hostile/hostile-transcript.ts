// A session whose transcripts a stranger wrote: markup that runs script when it is not escaped
// (`<script>`, `<img onerror>`, an attribute break-out) in every field `warren report` shows,
// text where numbers belong. Each payload records its field in `window.__ran` if it ever runs.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const HOSTILE_SESSION_ID = '2026-01-01T00-00-00.000Z-hostile1';

/** The markup for one field: three ways to run script, each naming the field if it runs. */
export function scriptPayload(field: string): string {
  const run = `(window.__ran=window.__ran||[]).push('${field}')`;
  return `"'><script>${run}</script><img src=x onerror="${run}"><svg onload="${run}">`;
}

/** Writes the session under `sessionDir`; returns the fields that carry a payload. */
export async function writeHostileSession(sessionDir: string): Promise<string[]> {
  const fields: string[] = [];
  const p = (field: string) => {
    fields.push(field);
    return scriptPayload(field);
  };
  const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
  const main = { v: 1, agentId: 'main-1', parentId: null as string | null, depth: 0 };
  const child = { v: 1, agentId: 'child-1', parentId: 'main-1', depth: 1 };
  const usage = {
    inputTokens: p('usage.inputTokens'),
    outputTokens: p('usage.outputTokens'),
    cacheReadInputTokens: p('usage.cacheReadInputTokens'),
    cacheCreationInputTokens: p('usage.cacheCreationInputTokens'),
  };
  const records = (ref: typeof main, prefix: string) => [
    {
      ...ref,
      timestamp: at(1),
      type: 'run_start',
      agentType: p(`${prefix}.agentType`),
      description: p(`${prefix}.description`),
      model: p(`${prefix}.model`),
      tools: [p(`${prefix}.tools`)],
      cwd: p(`${prefix}.cwd`),
      path: p(`${prefix}.path`),
    },
    {
      ...ref,
      timestamp: at(2),
      type: 'message',
      message: { role: p(`${prefix}.message.role`), content: p(`${prefix}.message.content`) },
    },
    {
      ...ref,
      timestamp: at(2),
      type: 'message',
      message: { role: 'user', content: p(`${prefix}.user.content`) },
    },
    {
      ...ref,
      timestamp: at(3),
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: p(`${prefix}.assistant.text`) },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: p(`${prefix}.assistant.toolName`),
            input: { command: p(`${prefix}.assistant.input`) },
          },
        ],
      },
    },
    {
      ...ref,
      timestamp: at(4),
      type: 'tool_end',
      toolCallId: 'c1',
      toolName: p(`${prefix}.tool_end.toolName`),
      output: p(`${prefix}.tool_end.output`),
      isError: true,
      durationMs: p(`${prefix}.tool_end.durationMs`),
    },
    {
      ...ref,
      timestamp: at(4),
      type: 'message',
      message: {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: p(`${prefix}.tool.toolName`),
            output: p(`${prefix}.tool.output`),
            isError: true,
          },
        ],
      },
    },
    {
      ...ref,
      timestamp: at(5),
      type: 'usage',
      turn: p(`${prefix}.usage.turn`),
      usage,
      costUsd: p(`${prefix}.usage.costUsd`),
      durationMs: p(`${prefix}.usage.durationMs`),
      finishReason: p(`${prefix}.usage.finishReason`),
    },
    {
      ...ref,
      timestamp: at(6),
      type: 'result',
      subtype: p(`${prefix}.result.subtype`),
      status: p(`${prefix}.result.status`),
      isError: false,
      result: p(`${prefix}.result.result`),
      error: p(`${prefix}.result.error`),
      agentType: p(`${prefix}.result.agentType`),
      description: p(`${prefix}.result.description`),
      numTurns: p(`${prefix}.result.numTurns`),
      toolCalls: p(`${prefix}.result.toolCalls`),
      durationMs: p(`${prefix}.result.durationMs`),
      usage,
      costUsd: p(`${prefix}.result.costUsd`),
    },
  ];
  const lines = (list: object[]) => `${list.map((record) => JSON.stringify(record)).join('\n')}\n`;
  await mkdir(join(sessionDir, HOSTILE_SESSION_ID, 'agents'), { recursive: true });
  await writeFile(join(sessionDir, `${HOSTILE_SESSION_ID}.jsonl`), lines(records(main, 'main')));
  await writeFile(
    join(sessionDir, HOSTILE_SESSION_ID, 'agents', 'child-1.jsonl'),
    lines(records(child, 'child')),
  );
  return fields;
}
