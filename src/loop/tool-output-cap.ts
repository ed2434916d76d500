// The most text one tool result may put into the conversation. Built-in tools cut their own
// output well below it; this holds for every tool (custom and MCP ones too), so one runaway
// result cannot fill the model's context, the transcript and memory.

/** Characters; Read's own limit is 100,000, Bash's 30,000. */
export const MAX_TOOL_OUTPUT_CHARS = 200_000;

/**
 * The output as is when it fits; else its start, followed by an error that says how much was
 * left out and what to do, flagged as an error so the model does not take it for the whole.
 */
export function capToolOutput<Result extends { output: string; isError: boolean }>(
  toolName: string,
  result: Result,
): Result {
  const { output } = result;
  if (output.length <= MAX_TOOL_OUTPUT_CHARS) return result;
  return {
    ...result,
    output:
      `${output.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n\n[Error: the output of ${toolName} was ` +
      `${output.length} characters, more than the ${MAX_TOOL_OUTPUT_CHARS} a tool result may ` +
      `hold; only the first ${MAX_TOOL_OUTPUT_CHARS} are above. Ask for less: a narrower path, ` +
      'pattern or range.]',
    isError: true,
  };
}
