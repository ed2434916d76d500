// `warren usage <session-id>`: what each agent of a session spent, as an indented tree with a
// subtotal under every agent that had children, or as JSON.

import { treeOrder } from '../../telemetry/session-timeline.js';
import type { SessionArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { agentJson, usageJson } from '../print/result-json.js';
import { loadTimeline } from './session-source.js';
import { formatUsageTable } from './usage-table.js';

export async function runUsageCommand(args: SessionArgs, io: CliIo): Promise<number> {
  const timeline = loadTimeline(args, io);
  if (!args.json) {
    io.stdout(formatUsageTable({ ...timeline, durationMs: timeline.endMs - timeline.startMs }));
    return 0;
  }
  const json = {
    session_id: timeline.sessionId,
    usage: usageJson(timeline.usage),
    total_cost_usd: timeline.costUsd,
    duration_ms: timeline.endMs - timeline.startMs,
    agents: treeOrder(timeline.agents).map(({ agent }) => ({
      ...agentJson(agent),
      path: agent.path,
      model: agent.model,
      parent_tool_call_id: agent.parentToolCallId,
    })),
  };
  io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  return 0;
}
