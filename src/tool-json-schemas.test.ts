// The built-in tools' JSON Schemas are made ahead of time (src/tools/tool-json-schemas.json):
// this keeps them equal to what the run would make of the tools' zod schemas. After changing a
// tool's input schema, regenerate them with
//   npx vitest run src/tool-json-schemas.test.ts -u
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { agentInputSchema } from './agents/agent-tool.js';
import { taskSpecSchema } from './agents/delegate-tools.js';
import { inputJsonSchema } from './model/model-prompt.js';
import { skillInputSchema } from './prompt/skills/skill-tool.js';
import { backgroundBashInputSchema } from './tasks/background-bash-tool.js';
import { listAgentsInputSchema } from './tasks/list-agents-tool.js';
import { sendMessageInputSchema } from './tasks/send-message-tool.js';
import { taskOutputInputSchema } from './tasks/task-output-tool.js';
import { taskStopInputSchema } from './tasks/task-stop-tool.js';
import { bashInputSchema } from './tools/bash.js';
import { editInputSchema } from './tools/edit.js';
import { globInputSchema } from './tools/glob.js';
import { grepInputSchema } from './tools/grep.js';
import { readInputSchema } from './tools/read.js';
import { todoWriteInputSchema } from './tools/todo-write.js';
import { TOOL_JSON_SCHEMAS, type ToolJsonSchemaKey } from './tools/tool-json-schemas.js';
import { webFetchInputSchema } from './tools/web-fetch.js';
import { writeInputSchema } from './tools/write.js';
import { workflowInputSchema } from './workflows/workflow-tool.js';

const INPUT_SCHEMAS: Record<ToolJsonSchemaKey, () => z.ZodType> = {
  Read: readInputSchema,
  Write: writeInputSchema,
  Edit: editInputSchema,
  Glob: globInputSchema,
  Grep: grepInputSchema,
  Bash: bashInputSchema,
  BackgroundBash: backgroundBashInputSchema,
  TodoWrite: todoWriteInputSchema,
  WebFetch: webFetchInputSchema,
  Agent: agentInputSchema,
  Delegate: taskSpecSchema,
  ListAgents: listAgentsInputSchema,
  SendMessage: sendMessageInputSchema,
  TaskOutput: taskOutputInputSchema,
  TaskStop: taskStopInputSchema,
  Workflow: workflowInputSchema,
  Skill: skillInputSchema,
};

describe("the built-in tools' JSON Schemas made ahead of time", () => {
  it('are what the run makes of their zod schemas', async () => {
    const made = Object.fromEntries(
      Object.entries(INPUT_SCHEMAS).map(([key, schema]) => [key, inputJsonSchema(schema())]),
    );
    await expect(`${JSON.stringify(made, null, 2)}\n`).toMatchFileSnapshot(
      './tools/tool-json-schemas.json',
    );
  });

  it('cover every tool that carries one', () => {
    expect(Object.keys(TOOL_JSON_SCHEMAS).sort()).toEqual(Object.keys(INPUT_SCHEMAS).sort());
  });
});
