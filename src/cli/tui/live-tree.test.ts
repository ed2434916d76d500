// The live tree never takes more rows than it is given, however many agents run.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/events.js';
import { backgroundLines, foregroundLines } from './live-tree.js';
import { SessionView } from './session-view.js';

const main = { agentId: 'main', parentId: null, depth: 0 };

/** A main agent that started `count` children with one Agent call each. */
function fanOut(count: number): SessionView {
  const view = new SessionView({ cwd: '/p' });
  for (let index = 0; index < count; index++) {
    const event: AgentEvent = {
      ...main,
      type: 'tool_start',
      toolCallId: `a${index}`,
      toolName: 'Agent',
      input: {},
    };
    view.observe(event, 0);
    view.observe(
      {
        agentId: `c${index}`,
        parentId: 'main',
        depth: 1,
        type: 'run_start',
        agentType: 'explore',
        description: `part ${index}`,
        model: 'm',
        tools: [],
        cwd: '/p',
        path: `main/Agent#${index + 1}/explore`,
        parentToolCallId: `a${index}`,
      },
      0,
    );
  }
  return view;
}

describe('the live tree', () => {
  it('shows each running call of the main agent, with the agent it started in its place', () => {
    const view = fanOut(2);
    view.observe(
      {
        ...main,
        type: 'tool_start',
        toolCallId: 'b1',
        toolName: 'Bash',
        input: { command: 'npm test' },
      },
      0,
    );
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
    for (let index = 0; index < grandchildren; index++) {
      view.observe(
        {
          agentId: 'c0',
          parentId: 'main',
          depth: 1,
          type: 'tool_start',
          toolCallId: `g${index}`,
          toolName: 'Agent',
          input: {},
        },
        0,
      );
      view.observe(
        {
          agentId: `g${index}`,
          parentId: 'c0',
          depth: 2,
          type: 'run_start',
          agentType: 'explore',
          description: `leaf ${index}`,
          model: 'm',
          tools: [],
          cwd: '/p',
          path: 'x',
          parentToolCallId: `g${index}`,
        },
        0,
      );
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
    view.observe(
      {
        ...main,
        type: 'tool_end',
        toolCallId: 'a1',
        toolName: 'Agent',
        output: '',
        isError: false,
        durationMs: 1,
      },
      0,
    );
    const names = (lines: ReturnType<typeof foregroundLines>) =>
      lines.map((line) => (line.kind === 'agent' ? line.row.description : line.kind));
    expect(names(foregroundLines(view, 10))).toEqual(['part 0', 'part 2']);
    expect(names(backgroundLines(view, 10))).toEqual(['part 1']);
  });
});
