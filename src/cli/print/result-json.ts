// The JSON contract of a finished run (`--output-format json`, the last line of stream-json):
// snake_case, the main agent's result, and the whole agent tree with usage per agent.
import type { RunResult } from '../../core/events.js';
import { cacheHitRatio, type Usage } from '../../core/usage.js';
import type { AgentSummary, AgentTree } from '../../telemetry/agent-tree.js';

export interface UsageJson {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export function usageJson(usage: Usage): UsageJson {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
  };
}

export function agentJson(agent: AgentSummary) {
  return {
    agent_id: agent.agentId,
    parent_id: agent.parentId,
    agent_type: agent.agentType,
    description: agent.description,
    depth: agent.depth,
    status: agent.status,
    background: agent.background,
    task_id: agent.taskId,
    num_turns: agent.numTurns,
    tool_calls: agent.toolCalls,
    usage: usageJson(agent.usage),
    cache_hit_ratio: roundedRatio(cacheHitRatio(agent.usage)),
    cost_usd: agent.costUsd,
    subtree_usage: usageJson(agent.subtreeUsage),
    subtree_cost_usd: agent.subtreeCostUsd,
    duration_ms: agent.durationMs,
    worktree: agent.worktree,
    structured_output: agent.structuredOutput,
    transcript: agent.transcript,
    todos: agent.todos,
  };
}

/** Four decimals are enough to compare runs; more is noise. */
function roundedRatio(ratio: number | null): number | null {
  return ratio === null ? null : Math.round(ratio * 10_000) / 10_000;
}

export function resultJson(params: { result: RunResult; sessionId: string; tree: AgentTree }) {
  const { result, sessionId, tree } = params;
  return {
    type: 'result',
    subtype: result.subtype,
    is_error: result.isError,
    result: result.result,
    ...(result.error ? { error: result.error } : {}),
    session_id: sessionId,
    num_turns: result.numTurns,
    duration_ms: result.durationMs,
    usage: usageJson(tree.totalUsage()),
    total_cost_usd: tree.totalCostUsd(),
    agents: tree.agents().map(agentJson),
  };
}
