// What an agent's structured result must look like: the JSON Schema its model is shown and the
// check its value must pass. Built from a definition's `outputSchema` (definitions/).

export type OutputCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

export interface OutputSchema {
  /** Shown to the model as the input of the `StructuredOutput` tool; always an object schema. */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /** Checks a value; problems read `path: what is wrong`, one per entry. */
  check(value: unknown): OutputCheck;
}
