// `warren mcp serve` over stdio: the MCP client started this process and speaks on its stdin
// and stdout; stdout carries nothing else. It ends when the client closes the pipe.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { AgentHost } from './agent-host.js';
import { mcpAgentServer } from './mcp-agent-server.js';

export async function serveMcpStdio(
  host: AgentHost,
  options: { version: string; stopped: Promise<void> },
): Promise<void> {
  const server = mcpAgentServer(host, options.version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await Promise.race([closed, options.stopped]);
  await server.close();
}
