// An MCP server's tool as a warren Tool: `mcp__<server>__<tool>`, the server's JSON Schema sent to
// the model as it is, read-only only when the server says so, and one `call` that goes through
// the server's connection.
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, type PlainTool, type Tool, toolError } from '../core/tool.js';
import type { McpConnection } from './mcp-connection.js';
import { McpServerGone } from './mcp-server-gone.js';
import { mcpToolNames } from './tool-names.js';
import { toolOutputOf } from './tool-result.js';

/** Longest description kept: some servers put whole manuals there. */
const MAX_DESCRIPTION_CHARS = 2_048;

export type McpTool = PlainTool & {
  /** The server's name as configured. */
  readonly mcpServer: string;
  /** The tool's name on the server. */
  readonly mcpToolName: string;
};

export function isMcpTool(tool: Tool): tool is McpTool {
  return typeof (tool as Partial<McpTool>).mcpServer === 'string';
}

// The server checks arguments against its schema; here an input only has to be a JSON object,
// so nothing is lost or refused in a translation of the schema.
const anyObject = z.record(z.string(), z.unknown());

/** The warren tools of a connected server. */
export function mcpTools(connection: McpConnection, toolTimeoutMs: number): McpTool[] {
  const infos = connection.tools;
  const names = mcpToolNames(
    connection.name,
    infos.map((info) => info.name),
  );
  return infos.map((info, index) => mcpTool(connection, info, names[index]!, toolTimeoutMs));
}

function mcpTool(
  connection: McpConnection,
  info: McpToolInfo,
  name: string,
  toolTimeoutMs: number,
): McpTool {
  const readOnly = info.annotations?.readOnlyHint === true;
  const tool = defineTool({
    name,
    description: describe(info),
    inputSchema: anyObject,
    jsonSchema: info.inputSchema,
    isReadOnly: readOnly,
    // Calls that change nothing may overlap; the others keep the order the model gave them.
    isConcurrencySafe: readOnly,
    timeoutMs: toolTimeoutMs,
    async call(input, ctx) {
      try {
        const result = await connection.callTool(info.name, input, {
          signal: ctx.signal,
          timeoutMs: toolTimeoutMs,
          onProgress: (text) => ctx.progress(text),
        });
        return toolOutputOf(result);
      } catch (error) {
        if (error instanceof McpServerGone) return toolError(error.message);
        throw error;
      }
    },
  });
  return Object.assign(tool, { mcpServer: connection.name, mcpToolName: info.name });
}

function describe(info: McpToolInfo): string {
  const text = (info.description ?? info.title ?? '').trim() || `The ${info.name} tool.`;
  return text.length > MAX_DESCRIPTION_CHARS
    ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}… [description cut]`
    : text;
}
