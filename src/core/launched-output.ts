// The tool result of a background start (agents/) or of an agent continued by SendMessage
// (tasks/): JSON the model can keep (task and agent ids, status), and what to do next.

/** The tool result of a background start: JSON the model can keep, and what to do next. */
export function launchedOutput(taskId: string, agentId: string, status: string): string {
  const json = JSON.stringify({ task_id: taskId, agent_id: agentId, status });
  const when =
    status === 'pending' ? ' It starts as soon as a slot under --max-parallel is free.' : '';
  return `${json}\nThe agent runs in the background.${when} You will be notified with its result when it finishes; do not guess or invent its result before then. Go on with other work, or end your turn to wait.`;
}
