// What a test scripts the mock LLM server to answer: text, tool calls, usage, errors and broken
// connections, the same for both wire protocols.

export interface MockToolCall {
  /** Defaults to `call_mock<n>` (OpenAI) or `toolu_mock<n>` (Anthropic). */
  id?: string;
  name: string;
  /** A string is sent as the raw arguments text, as is: the way to send arguments that are not JSON. */
  input: unknown;
}

/** Token counts as Anthropic reports them: `input` excludes the cached tokens. */
export interface MockUsage {
  input: number;
  output: number;
  cacheRead?: number;
  /** Anthropic only; OpenAI has no cache writes and counts these as plain prompt tokens. */
  cacheWrite?: number;
}

export interface MockReply {
  /** A string streams one word per chunk; an array streams exactly those pieces. */
  text?: string | string[];
  /**
   * Sends the text this many times over, one piece after another: a reply of hundreds of MB
   * that costs the server one copy of each piece (stream it; a JSON body would be built whole).
   */
  repeat?: number;
  toolCalls?: MockToolCall[];
  /** Defaults to about one token per four bytes of request body and of output. */
  usage?: MockUsage;
  /** Ends as if the output token limit was hit: `length` / `max_tokens`. */
  truncated?: boolean;
  /** An HTTP status of 400 or more sends an error in the API's own error shape. */
  status?: number;
  /** Replaces the error body (an object is sent as JSON, a string as-is). */
  errorBody?: unknown;
  /** The message inside the API-shaped error body, and of `errorEventAfterChunks`. */
  errorMessage?: string;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /**
   * Sends this many SSE events, then closes the connection mid-body, as a dying server or proxy
   * does. A JSON reply closes it before sending anything.
   */
  cutAfterChunks?: number;
  /** SSE: sends this many chunks, then ends the response cleanly, without the API's end marker. */
  endAfterChunks?: number;
  /** SSE: sends this many chunks, then the API's in-stream error event, then ends cleanly. */
  errorEventAfterChunks?: number;
  /** Wait before the response starts. */
  delayMs?: number;
  /** Wait between SSE chunks. */
  chunkDelayMs?: number;
}
