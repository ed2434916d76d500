// One line of the live tree: a running tool call of the main agent, a sub-agent (running or
// finished under a parent that still runs), a background task with no agent row, a workflow
// run, or the count of the rows that did not fit.
import { Text } from 'ink';
import { FinishedAgentLine, indentOf, RunningAgentLine } from './agent-line.js';
import type { TreeLine } from './live-tree.js';
import { RunningTaskLine } from './task-line.js';
import { RunningToolLine } from './tool-line.js';
import { activityOf, summaryOf } from './view-items.js';
import { RunningWorkflowLine } from './workflow-line.js';

export function TreeLineView({ line, now, width }: { line: TreeLine; now: number; width: number }) {
  switch (line.kind) {
    case 'tool':
      return <RunningToolLine summary={line.tool.summary} elapsedMs={now - line.tool.startedAt} />;
    case 'agent': {
      const { row } = line;
      if (row.status !== 'running') {
        return <FinishedAgentLine agent={summaryOf(row)} indent={line.indent} />;
      }
      return (
        <RunningAgentLine
          agentType={row.agentType}
          description={row.description}
          turns={row.turns}
          toolCalls={row.toolCalls}
          tokens={row.tokens}
          elapsedMs={now - row.startedAt}
          activity={activityOf(row)}
          indent={line.indent}
          width={width}
        />
      );
    }
    case 'task':
      return <RunningTaskLine task={line.task} now={now} />;
    case 'workflow':
      return <RunningWorkflowLine workflow={line.workflow} now={now} />;
    case 'more': {
      const parts = [
        line.running > 0 ? `${line.running} more running` : '',
        line.finished > 0 ? `${line.finished} finished` : '',
      ].filter(Boolean);
      return (
        <Text dimColor wrap="truncate-end">
          {`${indentOf(line.indent)}… and ${parts.join(', ')}`}
        </Text>
      );
    }
  }
}
