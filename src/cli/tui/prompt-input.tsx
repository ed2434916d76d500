// Where the person types: several lines (Shift+Enter, Alt+Enter, or `\` then Enter), earlier
// prompts with Up/Down, a paste taken whole, the usual line-editing keys. Enter sends.
import { Box, Text, useInput, usePaste } from 'ink';
import { useEffect, useRef, useState } from 'react';
import {
  backspace,
  bufferOf,
  deleteForward,
  deleteWordBack,
  down,
  EMPTY,
  type InputBuffer,
  insert,
  killToLineEnd,
  killToLineStart,
  left,
  lineEnd,
  lineStart,
  right,
  up,
} from './input-buffer.js';
import { useTheme } from './theme-context.js';

export interface PromptInputProps {
  /** Earlier prompts, oldest first. */
  history: readonly string[];
  onSubmit: (text: string) => void;
  /** Keys go elsewhere while false (a permission question is open). */
  isActive: boolean;
  placeholder: string;
  /** Lines drawn at most; a longer prompt shows the lines around the cursor. */
  maxLines: number;
  /** Told how many lines the prompt takes, so the screen above can make room. */
  onLinesChange?: (lines: number) => void;
}

export function PromptInput(props: PromptInputProps) {
  const { history, onSubmit, isActive, placeholder, maxLines, onLinesChange } = props;
  const theme = useTheme();
  // Keys can arrive faster than React draws: handlers read and write these refs, and the state
  // only draws them, so a key never acts on a buffer one key old.
  const [buffer, drawBuffer] = useState<InputBuffer>(EMPTY);
  const current = useRef<InputBuffer>(EMPTY);
  const setBuffer = (next: InputBuffer) => {
    current.current = next;
    drawBuffer(next);
  };
  // Where Up/Down stand in the history, and the draft to come back to.
  const recalled = useRef<{ index: number; draft: string } | undefined>(undefined);
  const setRecall = (value: { index: number; draft: string } | undefined) => {
    recalled.current = value;
  };

  const edit = (next: InputBuffer) => {
    setBuffer(next);
    setRecall(undefined);
  };
  const showHistory = (index: number, draft: string) => {
    if (index >= history.length) {
      setBuffer(bufferOf(draft));
      setRecall(undefined);
      return;
    }
    setBuffer(bufferOf(history[index]!));
    setRecall({ index, draft });
  };

  /** Enter: a new line after a `\`, else the prompt is sent. */
  const enter = () => {
    const buffer = current.current;
    if (buffer.text.slice(0, buffer.cursor).endsWith('\\')) {
      return edit(insert(backspace(buffer), '\n'));
    }
    if (!buffer.text.trim()) return;
    onSubmit(buffer.text);
    setBuffer(EMPTY);
    setRecall(undefined);
  };

  useInput(
    (input, key) => {
      const buffer = current.current;
      const recall = recalled.current;
      // Keys of the whole UI: handled by the app, not typed.
      if (key.escape || key.tab || (key.ctrl && (input === 'c' || input === 'b'))) return;
      if (key.return) {
        if (key.shift || key.meta) return edit(insert(buffer, '\n'));
        return enter();
      }
      // Keys typed faster than they are read come as one chunk ("fix it\r"): a carriage
      // return in it is still Enter. (A paste comes whole through usePaste.)
      if (input.length > 1 && !key.ctrl && !key.meta && /[\r\n]/.test(input)) {
        for (const part of input.split(/(\r\n?|\n)/)) {
          if (part.startsWith('\r')) enter();
          else if (part === '\n') edit(insert(current.current, '\n'));
          else if (part) edit(insert(current.current, part));
        }
        return;
      }
      if (key.upArrow) {
        const moved = up(buffer);
        if (moved) return setBuffer(moved);
        const index = (recall?.index ?? history.length) - 1;
        if (index >= 0) showHistory(index, recall?.draft ?? buffer.text);
        return;
      }
      if (key.downArrow) {
        const moved = down(buffer);
        if (moved) return setBuffer(moved);
        if (recall) showHistory(recall.index + 1, recall.draft);
        return;
      }
      if (key.leftArrow) return setBuffer(left(buffer));
      if (key.rightArrow) return setBuffer(right(buffer));
      if (key.home || (key.ctrl && input === 'a')) return setBuffer(lineStart(buffer));
      if (key.end || (key.ctrl && input === 'e')) return setBuffer(lineEnd(buffer));
      if (key.backspace) return edit(backspace(buffer));
      if (key.delete || (key.ctrl && input === 'd')) return edit(deleteForward(buffer));
      if (key.ctrl && input === 'w') return edit(deleteWordBack(buffer));
      if (key.ctrl && input === 'u') return edit(killToLineStart(buffer));
      if (key.ctrl && input === 'k') return edit(killToLineEnd(buffer));
      if (key.ctrl || key.meta || !input) return;
      edit(insert(buffer, input.replace(/\r\n?/g, '\n')));
    },
    { isActive },
  );
  usePaste((text) => edit(insert(current.current, text.replace(/\r\n?/g, '\n'))), { isActive });

  const lines = buffer.text.split('\n');
  const cursorLine = buffer.text.slice(0, buffer.cursor).split('\n').length - 1;
  const first = Math.max(0, Math.min(cursorLine - maxLines + 1, lines.length - maxLines));
  const shown = Math.min(lines.length, maxLines);
  useEffect(() => onLinesChange?.(shown), [shown, onLinesChange]);
  let offset = 0;
  return (
    <Box flexDirection="column" borderStyle="round" borderDimColor paddingX={1}>
      {buffer.text === '' ? (
        <Text>
          <Text color={theme.accent}>{'❯ '}</Text>
          {isActive ? <Text inverse> </Text> : null}
          <Text dimColor>{placeholder}</Text>
        </Text>
      ) : (
        lines.map((line, index) => {
          const start = offset;
          offset += line.length + 1;
          if (index < first || index >= first + shown) return null;
          const cursor = isActive ? buffer.cursor - start : -1;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a line's place is its identity
            <Text key={index}>
              <Text color={theme.accent}>{index === 0 ? '❯ ' : '  '}</Text>
              <LineWithCursor line={line} cursor={cursor} />
            </Text>
          );
        })
      )}
    </Box>
  );
}

/** The line with the character under the cursor drawn inverted (a space past the end). */
function LineWithCursor({ line, cursor }: { line: string; cursor: number }) {
  if (cursor < 0 || cursor > line.length) return line;
  const at = [...line.slice(cursor)][0] ?? ' ';
  return (
    <>
      {line.slice(0, cursor)}
      <Text inverse>{at}</Text>
      {line.slice(cursor + at.length)}
    </>
  );
}
