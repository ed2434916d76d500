// The JSON Schemas of warren's own tools' inputs, as the model is shown them: made from their zod
// schemas ahead of time (tool-json-schemas.json, kept equal to what zod makes by
// src/tool-json-schemas.test.ts), so a run's first request converts none of them at start-up.
import schemas from './tool-json-schemas.json' with { type: 'json' };

export type ToolJsonSchemaKey = keyof typeof schemas;

export const TOOL_JSON_SCHEMAS: Readonly<
  Record<ToolJsonSchemaKey, Readonly<Record<string, unknown>>>
> = schemas;
