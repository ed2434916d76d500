// Calls straight to restate-server's ingress, as anyone who can reach it may make them: a
// workflow started with any input, attached to, and any handler called. For the tests that
// forge what a parent or a worker would send. Internal to warren's own tests.

export interface IngressAnswer {
  status: number;
  text: string;
}

/** Starts the `subagent` workflow `agentId` with `input` as its spec, as the ingress takes it. */
export function submitWorkflow(
  ingressUrl: string,
  agentId: string,
  input: unknown,
): Promise<IngressAnswer> {
  return post(`${ingressUrl}/subagent/${agentId}/run/send`, input);
}

/** Waits for the workflow's outcome: 200 and its result, or the error it ended with. */
export async function attachWorkflow(ingressUrl: string, agentId: string): Promise<IngressAnswer> {
  const response = await fetch(`${ingressUrl}/restate/workflow/subagent/${agentId}/attach`, {
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: await response.text() };
}

/** Calls `handler` of `service` (key `key`) with `input`. */
export function callHandler(
  ingressUrl: string,
  service: string,
  key: string,
  handler: string,
  input: unknown,
): Promise<IngressAnswer> {
  return post(`${ingressUrl}/${service}/${key}/${handler}`, input);
}

async function post(url: string, input: unknown): Promise<IngressAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: await response.text() };
}
