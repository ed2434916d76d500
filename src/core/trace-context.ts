// Where a child that runs in another process (an A2A agent, an ACP agent) learns the W3C
// `traceparent` to send it, so the spans of its run join the parent's trace. Filled by the run's
// tracer (telemetry/agent-trace-contexts.ts); absent when the run is not traced.

export interface TraceContextSource {
  /**
   * The traceparent of the agent's own span (`00-<trace id>-<span id>-<flags>`) once the tracer
   * has started it; undefined when it never does (tracing ended, or the span is not started
   * soon after the agent's `run_start`).
   */
  traceparentOf(agentId: string): Promise<string | undefined>;
}

/** `spec` with its agent's traceparent, when the run is traced. */
export async function withTraceparent<Spec extends { agentId: string; traceparent?: string }>(
  spec: Spec,
  source: TraceContextSource | undefined,
): Promise<Spec> {
  const traceparent = await source?.traceparentOf(spec.agentId);
  return traceparent === undefined ? spec : { ...spec, traceparent };
}
