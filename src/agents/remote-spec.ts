// What travels to a worker for one remote child (core's RemoteChildSpec), decided from the
// parent's view as subagent-context.ts decides a local child's: definition, prompt, model, cwd
// (and a worktree to make from it), budgets, permission rules, depth. Never a key or the
// parent's conversation.
import { createHash } from 'node:crypto';
import type { PermissionPolicy } from '../core/permission-policy.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import type { SpawnToolContext } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { compileOutputSchema } from '../definitions/output-schema.js';
import { aliasSpec, isModelAlias, providerOf } from '../model/model-alias.js';
import type { RemotePort } from './remote-port.js';
import {
  childPath,
  DEFAULT_CHILD_MAX_TURNS,
  type Spawner,
  type SubagentRequest,
} from './subagent-context.js';

/**
 * A remote child's id, the same for the same call of the same parent: its workflow's key. A
 * parent that is itself a remote child may run this call again after a crash; the same id then
 * attaches to the child already running instead of starting a second one.
 */
function remoteAgentId(ctx: Pick<SpawnToolContext, 'agent' | 'run' | 'toolCallId'>): string {
  const hash = createHash('sha256')
    .update(`${ctx.agent.agentId}\0${ctx.run.messages.length}\0${ctx.toolCallId}`)
    .digest('hex');
  return `agent_${hash.slice(0, 12)}`;
}

export function remoteSpec(
  spawner: Spawner,
  request: SubagentRequest,
  ctx: Pick<SpawnToolContext, 'agent' | 'run' | 'toolCallId' | 'cwd'>,
  port: RemotePort,
): RemoteChildSpec {
  const { runtime } = spawner;
  const { run } = ctx;
  const { definition } = request;
  const depth = ctx.agent.depth + 1;
  const granted = spawner.toolsFor({ depth, definition, parentTools: run.tools });
  const tools = granted.tools.map((tool) => tool.name);
  const mayStart = new Set([...(definition.spawnableAgents ?? []), ...(definition.agents ?? [])]);
  const definitions = [...runtime.definitions.values()].filter(
    (candidate) =>
      candidate.source.kind !== 'builtin' &&
      candidate.name !== definition.name &&
      (tools.includes('Agent')
        ? !definition.spawnableAgents || mayStart.has(candidate.name)
        : mayStart.has(candidate.name)),
  );
  const now = Date.now();
  const left = run.budget.remaining(now);
  const deadline = Math.min(
    run.budget.effectiveDeadline(),
    now + (definition.timeBudgetMs ?? Infinity),
    now + (request.timeBudgetMs ?? Infinity),
  );
  const tokens = Math.min(left.tokens, definition.tokenBudget ?? Infinity);
  const { baseUrl } = run.inherited;
  return {
    agentId: request.agentId ?? remoteAgentId(ctx),
    parentId: ctx.agent.agentId,
    depth,
    agentPath:
      request.agentPath ?? childPath(run.agentPath, run.messages, ctx.toolCallId, definition.name),
    description: request.description,
    prompt: request.prompt,
    // The call's effort travels as the definition's: the worker reads it from there.
    definition: travelling(
      request.effort === undefined ? definition : { ...definition, effort: request.effort },
    ),
    definitions: definitions.map(travelling),
    tools,
    model: { spec: modelSpecOf(request, port), ...(baseUrl === undefined ? {} : { baseUrl }) },
    cwd: ctx.cwd,
    ...(request.isolation === 'worktree' && {
      worktree: request.worktreeBase === undefined ? {} : { base: request.worktreeBase },
    }),
    budget: {
      ...(Number.isFinite(deadline) ? { deadline } : {}),
      windDownMs: run.budget.windDownMs,
      ...(Number.isFinite(tokens) ? { tokens } : {}),
      ...(Number.isFinite(left.costUsd) ? { costUsd: left.costUsd } : {}),
      maxTurns: Math.max(
        1,
        Math.min(definition.maxTurns ?? DEFAULT_CHILD_MAX_TURNS, run.turnsLeft),
      ),
    },
    permissions: rulesOf(run.permissions),
    maxDepth: runtime.maxDepth,
    calls: {
      requestTimeoutMs: finite(run.inherited.requestTimeoutMs),
      toolTimeoutMs: finite(run.inherited.toolTimeoutMs),
      maxOutputTokens: run.inherited.maxOutputTokens,
      graceTurn: run.inherited.graceTurn,
    },
  };
}

/**
 * The definition as JSON, less what stays on this machine: hooks (they run where the session
 * runs) and MCP servers (a worker starts none). An output schema goes as JSON Schema.
 */
function travelling(definition: AgentDefinition): Record<string, unknown> {
  const { hooks: _hooks, mcpServers: _servers, outputSchema, ...rest } = definition;
  return {
    ...rest,
    ...(outputSchema === undefined
      ? {}
      : { outputSchema: compileOutputSchema(outputSchema).jsonSchema }),
  };
}

/**
 * The child's model as a spec: its own (an Agent call's `model`, its definition's), or its
 * parent's for `inherit`. A model object cannot travel, so a run whose model is not a spec has
 * none to send.
 */
function modelSpecOf(request: SubagentRequest, port: RemotePort): string {
  const wanted = request.model ?? request.definition.model;
  const parent = port.modelSpec;
  if (wanted && wanted !== 'inherit' && !isModelAlias(wanted)) return wanted;
  const alias = wanted && isModelAlias(wanted) ? aliasSpec(wanted, providerOf(parent)) : undefined;
  if (alias) return alias;
  if (parent) return parent;
  throw new Error(
    'a remote child needs its model as a provider:model spec, and this run has none to pass on (its model is an object): give the agent a model of its own, or run with --model <provider:model>',
  );
}

/** The parent's rules when it has a rule-based policy; a custom policy cannot travel. */
function rulesOf(policy: PermissionPolicy | undefined): RemoteChildSpec['permissions'] {
  if (policy && 'mode' in policy && 'allow' in policy && 'deny' in policy && 'ask' in policy) {
    const rules = policy as unknown as RemoteChildSpec['permissions'];
    return {
      mode: rules.mode,
      allow: [...rules.allow],
      deny: [...rules.deny],
      ask: [...rules.ask],
    };
  }
  return { mode: 'default', allow: [], deny: [], ask: [] };
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}
