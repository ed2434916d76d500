// A run's event stream with an OpenTelemetry tracer reading along: what `query()` returns when
// given a TracerProvider. The tracer module (and @opentelemetry/api) load only then.
import type { TracerProvider } from '@opentelemetry/api';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { AgentTracerOptions } from './agent-tracer.js';

export async function* tracedRun(
  run: AsyncGenerator<AgentEvent, RunResult>,
  tracerProvider: TracerProvider,
  options: AgentTracerOptions = {},
): AsyncGenerator<AgentEvent, RunResult> {
  const { AgentTracer } = await import('./agent-tracer.js');
  const tracer = new AgentTracer(tracerProvider.getTracer('warren'), options);
  let finished = false;
  try {
    let step = await run.next();
    while (!step.done) {
      tracer.observe(step.value);
      yield step.value;
      step = await run.next();
    }
    finished = true;
    return step.value;
  } finally {
    // A consumer that stops reading stops the run, and whatever it left open ends here.
    if (!finished) await run.return(undefined as never);
    tracer.endAll();
  }
}
