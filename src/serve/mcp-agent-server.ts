// `warren mcp serve`'s MCP server: every served definition is a tool whose call runs that agent
// on the caller's prompt. Progress goes out as notifications, the caller's cancel aborts the
// run, permission questions become elicitations when the client takes them.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RUN_REPORT_KEY } from '../a2a/remote-run-report.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import type { AgentHost } from './agent-host.js';
import { ProgressLines } from './event-progress.js';
import { elicitingCanUseTool } from './mcp-permission.js';
import { outputJsonSchema, resultText, servedReport } from './served-result.js';

/** Where a result's usage report goes in a tool result's `_meta` (as in A2A status metadata). */
export const RUN_META_KEY = RUN_REPORT_KEY;

const callInputSchema = z.strictObject({
  prompt: z.string().min(1),
});

const INPUT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    prompt: {
      type: 'string',
      minLength: 1,
      description:
        'The task for the agent. It sees nothing of your conversation, so say everything it needs: the goal, what you already know, where to look, and what to report back.',
    },
  },
  required: ['prompt'],
  additionalProperties: false,
} as const;

/** An MCP server over `host`; connect it to a transport (stdio, or one HTTP session). */
export function mcpAgentServer(host: AgentHost, version: string): Server {
  const server = new Server(
    { name: 'warren', version },
    { capabilities: { tools: {} }, instructions: serverInstructions(host.definitions) },
  );
  const byName = new Map(host.definitions.map((definition) => [definition.name, definition]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: host.definitions.map(toolOf),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const definition = byName.get(request.params.name);
    if (!definition) {
      return errorResult(
        `No agent "${request.params.name}" is served here; served: ${[...byName.keys()].join(', ')}.`,
      );
    }
    const input = callInputSchema.safeParse(request.params.arguments ?? {});
    if (!input.success) {
      const problem = input.error.issues[0];
      return errorResult(
        `Invalid arguments for ${definition.name}: ${problem?.path.join('.') || 'input'}: ${problem?.message}. Pass { "prompt": "<the task>" }.`,
      );
    }
    const token = request.params._meta?.progressToken;
    // W3C trace context in `_meta`, as OpenTelemetry's MCP conventions carry it.
    const traceparent = request.params._meta?.traceparent;
    const lines = new ProgressLines();
    let progress = 0;
    const elicits = server.getClientCapabilities()?.elicitation !== undefined;
    const result = await host.run({
      agent: definition.name,
      prompt: input.data.prompt,
      signal: extra.signal,
      ...(typeof traceparent === 'string' ? { traceparent } : {}),
      ...(elicits ? { canUseTool: elicitingCanUseTool(extra) } : {}),
      onEvent: (event) => {
        if (token === undefined) return;
        const message = lines.line(event);
        if (message === undefined) return;
        progress += 1;
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, message },
          })
          // The caller went away: the run's own signal ends it; nothing to report to.
          .catch(() => {});
      },
    });
    const report = servedReport(result);
    const structured =
      definition.outputSchema !== undefined && isRecord(result.structuredOutput)
        ? { structuredContent: result.structuredOutput }
        : {};
    return {
      content: [{ type: 'text', text: resultText(result) }],
      ...structured,
      ...(result.isError ? { isError: true } : {}),
      _meta: { [RUN_META_KEY]: report },
    } satisfies CallToolResult;
  });
  return server;
}

function toolOf(definition: AgentDefinition): McpTool {
  const output = outputJsonSchema(definition);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: INPUT_JSON_SCHEMA as unknown as McpTool['inputSchema'],
    ...(output ? { outputSchema: output as McpTool['outputSchema'] } : {}),
    annotations: { title: definition.name, openWorldHint: true },
  };
}

function serverInstructions(definitions: readonly AgentDefinition[]): string {
  return `warren agents: each tool runs one agent (it may start sub-agents of its own) on your prompt and returns its result. Agents: ${definitions.map((definition) => definition.name).join(', ')}.`;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
