// Whether `warren agents` shows a definition as trusted: what its file may start (inline MCP
// servers) is used only when trusted. A project file is trusted at the content recorded in the
// MCP trust store (`warren trust <file>`); the person's own definitions, --agents-dir folders,
// built-ins and code are theirs. One function, so the project-trust work can repoint it.
import type { AgentSource } from '../agents/definitions/agent-definition.js';
import { mcpTrust } from '../mcp/trust-store.js';

export type AgentTrust = 'trusted' | 'untrusted' | 'changed';

export function agentTrustChecker(
  options: { trustProject?: boolean; storePath?: string } = {},
): (source: AgentSource) => AgentTrust {
  const trust = mcpTrust(options);
  return (source) =>
    source.kind === 'project' && source.path !== undefined ? trust.trustOf(source.path) : 'trusted';
}
