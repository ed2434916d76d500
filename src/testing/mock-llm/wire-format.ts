// The contract each API's wire format fulfils for the mock server (a reply resolved once, then
// rendered as that API's JSON, SSE events and errors), and the SSE framing both share.
import { randomUUID } from 'node:crypto';
import type { MockReply, MockUsage } from './mock-reply.js';

export interface ResolvedToolCall {
  id: string;
  name: string;
  /** The input as the JSON text the APIs stream. */
  arguments: string;
}

/** A reply with its ids, text pieces, argument texts and usage settled, ready to render. */
export interface ResolvedCall {
  reply: MockReply;
  model: string;
  textPieces: string[];
  toolCalls: ResolvedToolCall[];
  usage: Required<MockUsage>;
  includeStreamUsage: boolean;
}

export interface WireFormat {
  toolCallIdPrefix: string;
  idHeader(): Record<string, string>;
  json(call: ResolvedCall): unknown;
  /** Complete SSE events, each ending in a blank line. */
  sseEvents(call: ResolvedCall): string[];
  errorBody(status: number, message: string): unknown;
  streamErrorEvent(message: string): string;
}

export function sseData(payload: object): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export function sseEvent(type: string, payload: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

/** Tool-call arguments stream in pieces of this many characters, so clients must join them. */
const ARGUMENT_PIECE_CHARS = 12;

/** The pieces a tool call's arguments text streams in, in order. */
export function argumentPieces(toolCall: ResolvedToolCall): string[] {
  const text = toolCall.arguments;
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += ARGUMENT_PIECE_CHARS) {
    pieces.push(text.slice(start, start + ARGUMENT_PIECE_CHARS));
  }
  return pieces;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** An id as the APIs write theirs: a prefix, then 32 hex digits. */
export function hexId(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll('-', '')}`;
}
