// What the model reads from an MCP tool result: text as it is, other content described in a line
// (warren's tool results are text), structured content as JSON unless the text already carries it,
// `isError` as an error result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutput } from '../core/tool.js';

/** A server's answer is cut here: beyond it a result costs more context than it is worth. */
export const MAX_RESULT_CHARS = 100_000;

type ContentBlock = CallToolResult['content'][number];

export function toolOutputOf(result: CallToolResult): ToolOutput {
  const parts = (result.content ?? []).map(describeBlock);
  const structured = result.structuredContent;
  if (structured !== undefined) {
    // Servers are asked to repeat structured content as text; the model needs it only once. The
    // text form is often not the JSON (server-filesystem sends the file as text and again as
    // `{content: <file>}`), so the text carries it when every value in it appears in the text.
    const text = (result.content ?? [])
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n');
    if (!carries(text, structured)) parts.push(JSON.stringify(structured));
  }
  const output = truncate(parts.join('\n') || '(no output)');
  return result.isError === true ? { output, isError: true } : output;
}

/** Whether `text` already says what `structured` holds: as JSON, or every scalar value in it. */
function carries(text: string, structured: unknown): boolean {
  if (text.trim() === '') return false;
  if (text.trim() === JSON.stringify(structured)) return true;
  const values = scalarsOf(structured);
  return values.every((value) => text.includes(value));
}

function scalarsOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(scalarsOf);
  if (typeof value === 'object') return Object.values(value).flatMap(scalarsOf);
  return [String(value)];
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource_link': {
      const about = [block.mimeType, block.description].filter(Boolean).join(', ');
      return `[resource link: ${block.name} <${block.uri}>${about ? ` (${about})` : ''}]`;
    }
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') {
        return `[resource <${resource.uri}>]\n${resource.text}`;
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource <${resource.uri}>: ${resource.mimeType ?? 'binary'}, ${base64Bytes(blob)} bytes, not shown]`;
    }
    default:
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function truncate(text: string): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  const left = text.length - MAX_RESULT_CHARS;
  return `${text.slice(0, MAX_RESULT_CHARS)}\n\n[Truncated: the server's answer had ${left} more characters.]`;
}
