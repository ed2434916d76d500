// The live tree never takes more rows than it is given, however many agents run.
import { describe, expect, it } from 'vitest';
import type { AgentRef } from '../../core/events.js';
import { runStartEvent } from '../../testing/run-results.js';
import { toolEndEvent, toolStartEvent } from '../../testing/tool-call-events.js';
import { backgroundLines, foregroundLines } from './live-tree.js';
import { SessionView } from './session-view.js';

const main = { agentId: 'main', parentId: null, depth: 0 };

/** `ref` calls Agent (`toolCallId`), and the child `agentId` it starts runs. */
function startChild(
  view: SessionView,
  ref: AgentRef,
  toolCallId: string,
  agentId: string,
  description: string,
): void {
  view.observe(toolStartEvent(ref, toolCallId, 'Agent'), 0);
  const child = { agentId, parentId: ref.agentId, depth: ref.depth + 1 };
  const path = `${ref.agentId}/Agent#${toolCallId}/explore`;
  view.observe(runStartEvent(child, path, { description, parentToolCallId: toolCallId }), 0);
}

/** A main agent that started `count` children with one Agent call each. */
function fanOut(count: number): SessionView {
  const view = new SessionView({ cwd: '/p' });
  for (let index = 0; index < count; index++) {
    startChild(view, main, `a${index}`, `c${index}`, `part ${index}`);
  }
  return view;
}

describe('the live tree', () => {
  it('shows each running call of the main agent, with the agent it started in its place', () => {
    const view = fanOut(2);
    view.observe(toolStartEvent(main, 'b1', 'Bash', { command: 'npm test' }), 0);
    const lines = foregroundLines(view, 10);
    expect(
      lines.map((line) =>
        line.kind === 'agent'
          ? line.row.description
          : line.kind === 'tool'
            ? line.tool.summary
            : 'more',
      ),
    ).toEqual(['part 0', 'part 1', 'Bash npm test']);
  });

  it('fits 100 running children into the rows it has, and counts the rest', () => {
    const lines = foregroundLines(fanOut(100), 15);
    expect(lines).toHaveLength(15);
    expect(lines.at(-1)).toEqual({
      kind: 'more',
      key: 'more',
      indent: 0,
      running: 86,
      finished: 0,
    });
  });

  it('drops finished rows before running ones when rows run short', () => {
    const view = fanOut(1);
    const grandchildren = 6;
    const c0 = { agentId: 'c0', parentId: 'main', depth: 1 };
    for (let index = 0; index < grandchildren; index++) {
      startChild(view, c0, `g${index}`, `g${index}`, `leaf ${index}`);
    }
    // Four of the six grandchildren finish; their parent still runs.
    for (let index = 0; index < 4; index++) {
      const row = view.agents.get(`g${index}`)!;
      row.status = 'completed';
    }
    expect(foregroundLines(view, 10)).toHaveLength(7);
    const tight = foregroundLines(view, 4);
    expect(
      tight.map((line) =>
        line.kind === 'agent'
          ? line.row.description
          : `more ${line.kind === 'more' ? line.finished : ''}`,
      ),
    ).toEqual(['part 0', 'leaf 4', 'leaf 5', 'more 4']);
  });

  it('shows agents working in the background in their own panel', () => {
    const view = fanOut(3);
    view.observe(toolEndEvent(main, 'a1', 'Agent'), 0);
    const names = (lines: ReturnType<typeof foregroundLines>) =>
      lines.map((line) => (line.kind === 'agent' ? line.row.description : line.kind));
    expect(names(foregroundLines(view, 10))).toEqual(['part 0', 'part 2']);
    expect(names(backgroundLines(view, 10))).toEqual(['part 1']);
  });
});
