// A permission question of a served run put to the MCP client as an elicitation (a form with one
// yes/no field), tied to the tool call that asked; no answer, or any answer but yes, denies.

import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CanUseTool } from '../permissions/create-permission-policy.js';

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function elicitingCanUseTool(extra: CallExtra): CanUseTool {
  return async (prompt) => {
    const who = prompt.agent.path ?? prompt.agent.agentType;
    const message = `${who} wants to run ${prompt.call}${prompt.reason ? ` (${prompt.reason})` : ''}. Allow it?`;
    try {
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message,
            requestedSchema: {
              type: 'object',
              properties: { allow: { type: 'boolean', title: 'Allow', description: message } },
              required: ['allow'],
            },
          },
        },
        ElicitResultSchema,
        { signal: prompt.signal },
      );
      if (answer.action === 'accept' && answer.content?.allow === true)
        return { behavior: 'allow' };
      return { behavior: 'deny', message: `The MCP client's user did not allow ${prompt.call}.` };
    } catch {
      return {
        behavior: 'deny',
        message: `${prompt.call} needs permission, and the MCP client could not be asked.`,
      };
    }
  };
}
