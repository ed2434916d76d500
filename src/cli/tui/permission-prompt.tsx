// The question asked when no rule decides a call: which agent asks, the exact call (a diff for
// Edit and Write), and the answers `y` once, `a` always (for every agent of the tree), `n` no with
// a note for the model; arrows and Enter or the option's number too, Esc says no.
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { callDiff } from './call-summary.js';
import type { PendingPermission } from './permission-queue.js';
import { useTheme } from './theme-context.js';

export interface PermissionPromptProps {
  pending: PendingPermission;
  /** Questions waiting behind this one. */
  waiting: number;
  onAllowOnce: () => void;
  onAllowAlways: (rule: string) => void;
  onDeny: (note: string) => void;
}

type Option =
  | { answer: 'once'; key: 'y'; label: string }
  | { answer: 'always'; key: 'a' | 'b'; rule: string; label: string }
  | { answer: 'deny'; key: 'n'; label: string };

/** Diff lines shown before "… N more lines": the question must fit a 24-row terminal. */
const MAX_DIFF_LINES = 8;

export function PermissionPrompt(props: PermissionPromptProps) {
  const theme = useTheme();
  const { prompt, agent } = props.pending;
  const options = optionsFor(props.pending);
  const [selected, setSelected] = useState(0);
  const [note, setNote] = useState<string | undefined>();
  // Keys may come faster than draws: act on the latest note, not the one last drawn.
  const noteRef = useRef<string | undefined>(undefined);
  const writeNote = (value: string | undefined) => {
    noteRef.current = value;
    setNote(value);
  };

  const choose = (option: Option) => {
    if (option.answer === 'once') props.onAllowOnce();
    else if (option.answer === 'always') props.onAllowAlways(option.rule);
    else writeNote('');
  };

  useInput((input, key) => {
    const typing = noteRef.current;
    if (typing !== undefined) {
      if (key.return) return props.onDeny(typing);
      if (key.escape) return props.onDeny('');
      if (key.backspace || key.delete) return writeNote(typing.slice(0, -1));
      // Typed faster than read, the note and its Enter come as one chunk.
      const enter = input.indexOf('\r');
      if (enter !== -1) return props.onDeny(typing + input.slice(0, enter));
      if (!key.ctrl && !key.meta && input) writeNote(typing + input);
      return;
    }
    if (key.escape) return props.onDeny('');
    if (key.upArrow) return setSelected((index) => Math.max(0, index - 1));
    if (key.downArrow) return setSelected((index) => Math.min(options.length - 1, index + 1));
    if (key.return) return choose(options[selected]!);
    const byKey = options.find((option) => option.key === input.toLowerCase());
    if (byKey && !key.ctrl) return choose(byKey);
    const byNumber = options[Number(input) - 1];
    if (byNumber && /^[1-9]$/.test(input)) choose(byNumber);
  });

  const who =
    agent.depth === 0
      ? 'main agent'
      : `${agent.agentType}${agent.description ? `  ${agent.description}` : ''}`;
  const toolName = prompt.tool.name;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold color={theme.warning}>
          Permission
        </Text>
        {` · ${who}${agent.background ? ' (background)' : ''}`}
        {props.waiting > 0 ? <Text dimColor>{` · ${props.waiting} more waiting`}</Text> : null}
      </Text>
      <Text wrap="truncate-end">
        <Text bold>{`${toolName}: `}</Text>
        {prompt.subject ?? JSON.stringify(prompt.input)}
      </Text>
      <Diff toolName={toolName} input={prompt.input} />
      {note === undefined
        ? options.map((option, index) => (
            <Text key={option.label} wrap="truncate-end">
              <Text color={index === selected ? theme.accent : undefined}>
                {index === selected ? '❯ ' : '  '}
              </Text>
              {`${index + 1}. ${option.label} `}
              <Text dimColor>{`(${option.key})`}</Text>
            </Text>
          ))
        : null}
      {note === undefined ? (
        <Text dimColor wrap="truncate-end">
          Always: allowed from now on in this session, for every agent of the tree.
        </Text>
      ) : (
        <Text>
          <Text dimColor>Tell the model why (optional), Enter to send: </Text>
          {note}
          <Text inverse> </Text>
        </Text>
      )}
    </Box>
  );
}

function Diff({ toolName, input }: { toolName: string; input: unknown }) {
  const theme = useTheme();
  const diff = callDiff(toolName, input);
  if (!diff) return null;
  const shown = diff.slice(0, MAX_DIFF_LINES);
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positions
          key={index}
          color={line.kind === 'removed' ? theme.error : theme.success}
          wrap="truncate-end"
        >
          {`${line.kind === 'removed' ? '-' : '+'} ${line.text}`}
        </Text>
      ))}
      {diff.length > shown.length ? (
        <Text dimColor>{`  … ${diff.length - shown.length} more lines`}</Text>
      ) : null}
    </Box>
  );
}

function optionsFor({ prompt }: PendingPermission): Option[] {
  const { exact, broader } = prompt.suggestions;
  const always = (rule: string) => `Always: ${rule}`;
  return [
    { answer: 'once', key: 'y', label: 'Yes' },
    { answer: 'always', key: 'a', rule: exact, label: always(exact) },
    ...(broader
      ? [{ answer: 'always' as const, key: 'b' as const, rule: broader, label: always(broader) }]
      : []),
    { answer: 'deny', key: 'n', label: 'No, and tell the model why' },
  ];
}
