// An ACP child's permission request decided by warren's permission gate: the call is put to the
// child's own policy (derived from its parent's, so never past the parent's limits) as the
// warren tool it most resembles, and the answer picks one of the options the child offered.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { AgentRef } from '../core/events.js';
import type { PermissionPolicy } from '../core/permission-policy.js';
import { defineTool, type Tool } from '../core/tool.js';
import { isInside } from '../tools/allowed-path.js';
import { bashTool } from '../tools/bash.js';
import { editTool } from '../tools/edit.js';
import { readTool } from '../tools/read.js';
import { webFetchTool } from '../tools/web-fetch.js';

export interface ChildAsker {
  agent: AgentRef & { agentType: string; path?: string; background?: boolean };
  cwd: string;
  allowedDirs: readonly string[];
  permissions: PermissionPolicy | undefined;
  signal: AbortSignal;
}

/** A call of a kind warren has no tool for: never read-only, its rule subject the call's title. */
const acpCallTool = defineTool({
  name: 'AcpCall',
  description: 'A tool call of an external ACP agent that warren has no tool for.',
  inputSchema: z.object({ title: z.string() }),
  isReadOnly: false,
  isConcurrencySafe: false,
  permissionSubject: (input) => input.title,
  call: async () => 'not callable',
});

/**
 * Read, as rules name it, but read-only only inside the child's folders: the external agent
 * reads the file itself, so no Read tool refuses the path after the gate as warren's would.
 */
const readStandIn: Tool = {
  ...(readTool as Tool),
  isReadOnly: (input, scope) => {
    const file = (input as { file_path: string }).file_path;
    const real = realLocation(path.resolve(scope.cwd, file));
    return scope.allowedDirs.some((dir) => isInside(real, realLocation(dir)));
  },
};

/** The path with its symlinks resolved as far as it exists. */
function realLocation(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? file : path.join(realLocation(parent), path.basename(file));
  }
}

/** The warren tool and input whose permission rules the child's call is judged by. */
export function standIn(
  request: RequestPermissionRequest,
  cwd: string,
): { tool: Tool; input: unknown } {
  const call = request.toolCall;
  const raw = (call.rawInput ?? {}) as Record<string, unknown>;
  const location = call.locations?.[0]?.path;
  const file = location ?? (typeof raw.file_path === 'string' ? raw.file_path : undefined);
  const filePath = file === undefined ? undefined : path.resolve(cwd, file);
  switch (call.kind) {
    case 'edit':
    case 'delete':
    case 'move':
      if (filePath)
        return { tool: editTool, input: { file_path: filePath, old_string: '', new_string: '' } };
      break;
    case 'read':
    case 'search':
      if (filePath) return { tool: readStandIn, input: { file_path: filePath } };
      break;
    case 'execute': {
      const command = typeof raw.command === 'string' ? raw.command : call.title;
      if (command) return { tool: bashTool, input: { command } };
      break;
    }
    case 'fetch':
      if (typeof raw.url === 'string')
        return { tool: webFetchTool, input: { url: raw.url, prompt: '' } };
      break;
  }
  return { tool: acpCallTool, input: { title: call.title ?? call.kind ?? 'an unnamed call' } };
}

/** The child's request, decided; without a policy (none configured) nothing is allowed. */
export async function decideChildPermission(
  request: RequestPermissionRequest,
  asker: ChildAsker,
): Promise<{ response: RequestPermissionResponse; allowed: boolean }> {
  const { tool, input } = standIn(request, asker.cwd);
  const decision = asker.permissions
    ? await asker.permissions.decide({
        tool,
        input,
        cwd: asker.cwd,
        allowedDirs: asker.allowedDirs,
        agent: asker.agent,
        signal: asker.signal,
      })
    : { behavior: 'deny' as const, message: 'no permission policy' };
  const allowed = decision.behavior === 'allow';
  // "Always" would let the child skip warren's gate next time: only a once is ever chosen, and
  // a request that offers no "allow once" is refused.
  const option = allowed
    ? (pick(request.options, ['allow_once']) ??
      pick(request.options, ['reject_once', 'reject_always']))
    : pick(request.options, ['reject_once', 'reject_always']);
  if (!option) return { response: { outcome: { outcome: 'cancelled' } }, allowed: false };
  return {
    response: { outcome: { outcome: 'selected', optionId: option.optionId } },
    allowed: option.kind === 'allow_once',
  };
}

/** The first option of the kinds given, in their order: "always" is never chosen over "once". */
function pick(
  options: readonly PermissionOption[],
  kinds: readonly string[],
): PermissionOption | undefined {
  for (const kind of kinds) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) return option;
  }
  return undefined;
}
