// A definition's `outputSchema` as written (JSON Schema in a file; zod or JSON Schema in code),
// made into the OutputSchema the loop holds an agent to: the JSON Schema its model is shown and
// the check its value must pass. Compiled once per schema object.

import { z } from 'zod';
import { messageOf } from '../core/error-message.js';
import type { OutputCheck, OutputSchema } from '../core/output-schema.js';

/** A JSON Schema object, or a zod schema (whose parsed output is the agent's typed value). */
export type OutputSchemaInput = Readonly<Record<string, unknown>> | z.ZodType;

const compiled = new WeakMap<object, OutputSchema>();

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * @throws Error saying why the schema cannot be used: not an object schema, or JSON Schema
 * that warren cannot check (an unsupported keyword, a `$ref` it cannot resolve).
 */
export function compileOutputSchema(input: OutputSchemaInput): OutputSchema {
  let schema = compiled.get(input);
  if (schema) return schema;
  schema = isZodSchema(input) ? fromZod(input) : fromJsonSchema(input);
  compiled.set(input, schema);
  return schema;
}

/** Why a value cannot be an output schema; undefined when it can. */
export function outputSchemaProblem(value: unknown): string | undefined {
  if (
    !isZodSchema(value) &&
    (typeof value !== 'object' || value === null || Array.isArray(value))
  ) {
    return 'it is not a schema object';
  }
  try {
    compileOutputSchema(value as OutputSchemaInput);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

function fromZod(schema: z.ZodType): OutputSchema {
  const jsonSchema = z.toJSONSchema(schema, { target: 'draft-07', io: 'input' });
  requireObject(jsonSchema);
  return { jsonSchema, check: (value) => checked(schema.safeParse(value)) };
}

function fromJsonSchema(jsonSchema: Readonly<Record<string, unknown>>): OutputSchema {
  requireObject(jsonSchema);
  const validator = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  return { jsonSchema, check: (value) => checked(validator.safeParse(value)) };
}

function requireObject(jsonSchema: Readonly<Record<string, unknown>>): void {
  if (jsonSchema.type !== 'object') {
    throw new Error(
      'the schema must describe an object (`type: object` with `properties`): a structured result is a tool input, and tools take objects',
    );
  }
}

function checked(result: z.ZodSafeParseResult<unknown>): OutputCheck {
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || '(the value)'}: ${issue.message}`,
    ),
  };
}
