// Reading a model's stream in a test: every part that arrived, and the error that ended it early
// if one did, so a test can check both what got through and why it stopped.

/** Reads the stream to its end or its failure; `error` is undefined when it ended normally. */
export async function readStreamParts<Part>(
  stream: ReadableStream<Part>,
): Promise<{ parts: Part[]; error: unknown }> {
  const parts: Part[] = [];
  try {
    for await (const part of stream) parts.push(part);
    return { parts, error: undefined };
  } catch (error) {
    return { parts, error };
  }
}
