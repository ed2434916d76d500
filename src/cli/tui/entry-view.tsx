// One finished item of the conversation as it is written above the live area, once: the
// person's prompt, the main agent's answer in Markdown, a tool line, a finished sub-agent, the
// end of a background task or a workflow run, a notice, or a command's output.
import { Box, Text } from 'ink';
import { FinishedAgentLine } from './agent-line.js';
import { MarkdownText } from './markdown-text.js';
import { EndedTaskLine } from './task-line.js';
import type { Theme } from './theme.js';
import { useTheme } from './theme-context.js';
import { FinishedToolLine } from './tool-line.js';
import type { Entry, EntryTone } from './view-items.js';
import { EndedWorkflowLine } from './workflow-line.js';

export function EntryView({ entry }: { entry: Entry }) {
  const theme = useTheme();
  switch (entry.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color={theme.accent} bold>
            {'❯ '}
          </Text>
          <Text bold>{entry.text}</Text>
        </Box>
      );
    case 'assistant':
      return (
        <Box marginTop={1} flexDirection="column">
          <MarkdownText text={entry.text} />
        </Box>
      );
    case 'tool':
      return <FinishedToolLine tool={entry} />;
    case 'agent':
      return (
        <FinishedAgentLine agent={entry.agent} indent={0} background={entry.background === true} />
      );
    case 'task':
      return <EndedTaskLine task={entry.task} />;
    case 'workflow':
      return <EndedWorkflowLine workflow={entry.workflow} durationMs={entry.durationMs} />;
    case 'notice':
      return <Text color={toneColour(theme, entry.tone)}>{entry.text}</Text>;
    case 'output':
      return (
        <Box marginTop={1} flexDirection="column">
          <Text bold>{entry.title}</Text>
          <Text>{entry.text.replace(/\n$/, '')}</Text>
        </Box>
      );
  }
}

function toneColour(theme: Theme, tone: EntryTone): string | undefined {
  switch (tone) {
    case 'error':
      return theme.error;
    case 'warning':
      return theme.warning;
    case 'success':
      return theme.success;
    case 'info':
      return undefined;
  }
}
