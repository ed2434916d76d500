// A permission question of any agent of the tree (background children included) as an ACP
// permission request that names the agent, and the client's answer as warren's.
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { PermissionAnswer, PermissionPrompt } from '../permissions/permission-prompt.js';
import { toolKind, toolLocations } from './tool-call-view.js';

const ALLOW_ONCE = 'allow_once';
const ALLOW_ALWAYS = 'allow_always';
const REJECT = 'reject_once';

export function permissionRequest(
  sessionId: string,
  prompt: PermissionPrompt,
  toolCallId: string,
): RequestPermissionRequest {
  const { agent } = prompt;
  const who = agent.path ?? agent.agentType;
  const rule = rememberable(prompt);
  const options: PermissionOption[] = [
    { optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
    ...(rule
      ? [{ optionId: ALLOW_ALWAYS, name: `Always allow ${rule}`, kind: 'allow_always' as const }]
      : []),
    { optionId: REJECT, name: 'Deny', kind: 'reject_once' },
  ];
  return {
    sessionId,
    toolCall: {
      toolCallId,
      title: `${who}${agent.background ? ' (background)' : ''} asks to run ${prompt.call}${
        prompt.reason ? `: ${prompt.reason}` : ''
      }`,
      kind: toolKind(prompt.tool.name),
      rawInput: prompt.input,
      locations: toolLocations(prompt.input, prompt.cwd),
      _meta: {
        warren: {
          agentId: agent.agentId,
          agentPath: agent.path ?? null,
          agentType: agent.agentType,
          background: agent.background === true,
        },
      },
    },
    options,
  };
}

/** The rule "always" would remember; none for a call across a line asked about every time. */
function rememberable(prompt: PermissionPrompt): string | undefined {
  if (prompt.reason) return undefined;
  return prompt.suggestions.exact;
}

export function permissionAnswer(
  response: RequestPermissionResponse,
  prompt: PermissionPrompt,
): PermissionAnswer {
  const { outcome } = response;
  if (outcome.outcome === 'selected' && outcome.optionId === ALLOW_ONCE)
    return { behavior: 'allow' };
  if (outcome.outcome === 'selected' && outcome.optionId === ALLOW_ALWAYS) {
    const remember = rememberable(prompt);
    return remember ? { behavior: 'allow', remember } : { behavior: 'allow' };
  }
  return {
    behavior: 'deny',
    message: `The person denied ${prompt.call}. Do not try to get around it: do without it, or ask them.`,
  };
}
