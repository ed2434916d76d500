// An agent that must finish with a structured value: the `StructuredOutput` tool it is given,
// and the rule that holds it to that. A value that does not fit, or ending without one, is sent
// back once with what is wrong; the second time the agent fails with it.
import { z } from 'zod';
import type { OutputSchema } from '../core/output-schema.js';
import { defineTool, type Tool, toolError } from '../core/tool.js';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';

export class StructuredOutput {
  readonly tool: Tool;
  /** The value the agent finished with, once one passed the schema. */
  recorded: { value: unknown } | undefined;
  /** Why the agent fails: its second bad value, or a second end without one. */
  failure: string | undefined;
  #retried = false;

  constructor(schema: OutputSchema) {
    this.tool = defineTool({
      name: STRUCTURED_OUTPUT_TOOL,
      description:
        'Finish with your result: call this once, when your work is done, with the final answer as its input in exactly the shape the schema asks for. Only this value is passed on; text you write besides is not.',
      // The model is shown the schema itself; the check below reports every problem at once.
      inputSchema: z.record(z.string(), z.unknown()),
      jsonSchema: schema.jsonSchema,
      isReadOnly: true,
      isConcurrencySafe: true,
      call: async (input) => {
        const checked = schema.check(input);
        if (checked.ok) {
          this.recorded = { value: checked.value };
          return 'Recorded. Your work is done.';
        }
        const problems = checked.problems.join('; ');
        if (this.#retry()) {
          return toolError(
            `The value does not fit the output schema: ${problems}. Call ${STRUCTURED_OUTPUT_TOOL} again with a corrected value.`,
          );
        }
        this.failure = `The structured output still did not fit the schema after one retry: ${problems}`;
        return toolError(this.failure);
      },
    });
  }

  /** After a batch of tool calls: the agent is done, with a value or a failure. */
  get settled(): boolean {
    return this.recorded !== undefined || this.failure !== undefined;
  }

  /**
   * The agent ended its turn. Without a value yet, the reminder to send it back with, once;
   * the second time, undefined with `failure` set.
   */
  reminder(): string | undefined {
    if (this.settled) return undefined;
    if (this.#retry()) {
      return `You have not given your result yet. Call ${STRUCTURED_OUTPUT_TOOL} now with your final answer in the shape its schema asks for.`;
    }
    this.failure = `The agent ended without calling ${STRUCTURED_OUTPUT_TOOL}, also after being reminded once.`;
    return undefined;
  }

  /** True the first time: the one chance to fix what is wrong. */
  #retry(): boolean {
    if (this.#retried) return false;
    this.#retried = true;
    return true;
  }
}
