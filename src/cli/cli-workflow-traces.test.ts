// A workflow run in the trace an operator receives: the real `warren -p` exports to an OTLP/HTTP
// receiver on loopback; the run is a `workflow <name>` span under its Workflow call carrying the
// run id, status and item counts, each item a `workflow_item <label>` span with its key, label
// and status, and the item's agent span below its item.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWarren } from '../testing/cli-process.js';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../testing/otlp-receiver.js';
import { makeTempDir } from '../testing/temp-dir.js';

const SCRIPT = [
  "export const meta = { name: 'trio', description: 'three items' };",
  'export const result = await parallel(',
  "  () => agent('ITEM-a-END', { label: 'alpha' }),",
  "  () => agent('ITEM-b-END', { label: 'beta' }),",
  "  () => agent('ITEM-bad-END', { label: 'broken' }),",
  ');',
].join('\n');

const MODEL = `
turns:
  - match: { prompt: START }
    tool_calls:
      - { name: Workflow, input: { script: ${JSON.stringify(SCRIPT)} } }
  - match: { prompt: ITEM-a-END }
    text: A
  - match: { prompt: ITEM-b-END }
    text: B
  - match: { prompt: ITEM-bad-END }
    error: { status: 400, message: malformed request }
  - match: { last_tool_result: '"run_id"' }
    text: WAITING
  - text: FINAL
  - text: FINAL
  - text: FINAL
`;

let receiver: OtlpReceiver;
let project: string;

beforeEach(async () => {
  receiver = await startOtlpReceiver();
  project = await makeTempDir('warren-workflow-trace-');
  await writeFile(join(project, 'model.yaml'), MODEL);
});
afterEach(async () => {
  await receiver.close();
});

const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) =>
  spans.find((candidate) => candidate.spanId === span.parentSpanId);

describe('a workflow in the OpenTelemetry trace', () => {
  it('has a span per run with its id, status and counts, and a span per item with its key, label and status', async () => {
    const run = await runWarren(
      ['-p', 'START', '--model', 'scripted:model.yaml', '--session-dir', join(project, 's')],
      { cwd: project, env: { HOME: project, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } },
    );
    expect(run.code, run.stderr).toBe(0);
    const spans = receiver.spans();
    const workflow = spans.find((span) => span.name === 'workflow trio')!;
    expect(workflow.attributes).toMatchObject({
      'warren.workflow.run_id': expect.stringMatching(/^wf_[0-9a-f]{8}$/),
      'warren.workflow.name': 'trio',
      'warren.workflow.status': 'completed_with_errors',
      'warren.workflow.items.completed': 2,
      'warren.workflow.items.failed': 1,
      'warren.workflow.items.total': 3,
    });
    expect(parentOf(spans, workflow)?.name).toBe('execute_tool Workflow');
    const items = spans.filter((span) => span.name.startsWith('workflow_item '));
    expect(items.map((span) => span.name).sort()).toEqual([
      'workflow_item alpha',
      'workflow_item beta',
      'workflow_item broken',
    ]);
    for (const item of items) {
      expect(item.parentSpanId).toBe(workflow.spanId);
      expect(item.attributes['warren.workflow.item.key']).toEqual(expect.any(String));
      expect(item.attributes['warren.workflow.run_id']).toBe(
        workflow.attributes['warren.workflow.run_id'],
      );
      // The item's agent hangs under its item.
      const agent = spans.find(
        (span) => span.name.startsWith('invoke_agent') && span.parentSpanId === item.spanId,
      );
      expect(agent?.attributes['gen_ai.agent.id']).toBe(
        item.attributes['warren.workflow.item.agent_id'],
      );
    }
    const broken = items.find((span) => span.name === 'workflow_item broken')!;
    expect(broken.attributes['warren.workflow.item.status']).toBe('failed');
    expect(broken.statusCode).toBe(2);
    const alpha = items.find((span) => span.name === 'workflow_item alpha')!;
    expect(alpha.attributes).toMatchObject({
      'warren.workflow.item.label': 'alpha',
      'warren.workflow.item.status': 'completed',
      'warren.workflow.item.occurrence': 0,
    });
  });
});
