import { describe, expect, it } from 'vitest';
import { AgentTraceContexts } from './agent-trace-contexts.js';

const IDS = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceFlags: 1,
};

describe('AgentTraceContexts', () => {
  it("answers an agent's traceparent once its span has started, and a question asked before", async () => {
    const contexts = new AgentTraceContexts();
    const early = contexts.traceparentOf('agent_1');
    contexts.started('agent_1', IDS);
    const expected = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(await early).toBe(expected);
    expect(await contexts.traceparentOf('agent_1')).toBe(expected);
  });

  it('answers undefined once tracing has ended, waiting questions included', async () => {
    const contexts = new AgentTraceContexts();
    const waiting = contexts.traceparentOf('agent_2');
    contexts.close();
    expect(await waiting).toBeUndefined();
    expect(await contexts.traceparentOf('agent_3')).toBeUndefined();
  });
});
