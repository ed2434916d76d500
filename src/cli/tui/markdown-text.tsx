// Markdown on screen: one Ink line per Markdown line, styled by kind and inline markup. With
// `lastLines`, only the tail that fits is drawn (text still streaming in a bounded area).
import { Box, Text } from 'ink';
import { type MarkdownLine, markdownLines, type Span } from './markdown.js';
import { useTheme } from './theme-context.js';

export interface MarkdownTextProps {
  text: string;
  /** Draw only the last lines, as many as fit in this many rows of `width` columns. */
  lastLines?: { rows: number; width: number };
}

export function MarkdownText({ text, lastLines }: MarkdownTextProps) {
  const all = markdownLines(text);
  const lines = lastLines ? tail(all, lastLines.rows, lastLines.width) : all;
  return (
    <Box flexDirection="column">
      {lines.map((line, index) => (
        // Lines have no identity of their own; their place is their key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Line key={index} line={line} />
      ))}
    </Box>
  );
}

function Line({ line }: { line: MarkdownLine }) {
  const theme = useTheme();
  if (line.kind === 'code') {
    return (
      <Text color={theme.code} wrap="truncate-end">
        {'  '}
        {line.spans[0]?.text ?? ''}
      </Text>
    );
  }
  const colour = line.kind === 'heading' ? theme.accent : undefined;
  return (
    <Text color={colour} dimColor={line.kind === 'quote' || line.kind === 'rule'}>
      {line.spans.length === 1 && line.spans[0]!.text === '' ? ' ' : null}
      {line.spans.map((span, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: spans are positions in one line
        <SpanText key={index} span={span} />
      ))}
    </Text>
  );
}

function SpanText({ span }: { span: Span }) {
  const theme = useTheme();
  if (span.code) return <Text color={theme.code}>{span.text}</Text>;
  if (span.bold || span.italic) {
    return (
      <Text bold={span.bold} italic={span.italic}>
        {span.text}
      </Text>
    );
  }
  return span.text;
}

/** The last lines of `lines` that fit in `rows` rows, counting the rows a long line wraps to. */
function tail(lines: MarkdownLine[], rows: number, width: number): MarkdownLine[] {
  let used = 0;
  let first = lines.length;
  while (first > 0) {
    const line = lines[first - 1]!;
    const length = line.spans.reduce((sum, span) => sum + [...span.text].length, 0);
    const height = line.kind === 'code' ? 1 : Math.max(1, Math.ceil(length / Math.max(1, width)));
    if (used + height > rows) break;
    used += height;
    first--;
  }
  return lines.slice(first);
}
