// Whether `warren agents` shows a definition as trusted: what a project file would run or widen
// (its hooks, inline MCP servers, a wider permission mode) is used only when the project is
// trusted (trust/project-trust.ts). The person's own definitions, --agents-dir folders, built-ins
// and code are theirs.
import { relative } from 'node:path';
import type { AgentSource } from '../../definitions/agent-definition.js';
import type { ProjectTrust } from '../trust/project-trust.js';

export type AgentTrust = 'trusted' | 'untrusted' | 'changed';

export function agentTrustChecker(trust: ProjectTrust): (source: AgentSource) => AgentTrust {
  return (source) => {
    if (source.kind !== 'project' || source.path === undefined || trust.trusted) return 'trusted';
    const file = relative(trust.projectDir, source.path);
    const changed = trust.items.some(
      ({ item, trust }) => item.file === file && trust.state === 'changed',
    );
    return changed ? 'changed' : 'untrusted';
  };
}
