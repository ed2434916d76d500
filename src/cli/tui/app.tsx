// The whole screen and the keys of the UI: the conversation written once above (Ink's <Static>),
// below it the live part within the terminal's height (streaming answer, agent tree, background
// panel, permission question or prompt, status line).
import { Box, Static, Text, useInput, useStdout, useWindowSize } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { BACKGROUND_QUESTION_ROWS, BackgroundQuestionLine } from './background-question-line.js';
import type { ChangeFeed } from './change-feed.js';
import { EntryView } from './entry-view.js';
import type { InteractiveSession } from './interactive-session.js';
import { backgroundLines, foregroundLines } from './live-tree.js';
import { MarkdownText } from './markdown-text.js';
import { PermissionPrompt } from './permission-prompt.js';
import { PromptInput } from './prompt-input.js';
import { runSlashCommand } from './slash-commands.js';
import { StatusLine } from './status-line.js';
import { TreeLineView } from './tree-line-view.js';
import { WorkingLine } from './working-line.js';

export interface AppProps {
  session: InteractiveSession;
  feed: ChangeFeed;
  /** Ctrl+C twice or `/exit`: the caller stops everything and unmounts. */
  onExit: () => void;
  now?: () => number;
}

/** How long a first Ctrl+C waits for the second. */
const EXIT_WINDOW_MS = 2000;
/** Rows the prompt's box takes besides its text: the border. */
const INPUT_CHROME = 2;
/** Rows a permission question takes at most: border, who, call, diff, options. */
const QUESTION_ROWS = 18;
/** Rows of the live tree at most, however tall the terminal. */
const MAX_TREE_ROWS = 20;
/** Entries of the conversation written in one draw at most. */
const MAX_NEW_ENTRIES_PER_DRAW = 12;

export function App({ session, feed, onExit, now = Date.now }: AppProps) {
  // From here to the layout effect: React's render and Ink's layout of this frame. The feed
  // spaces the next draws by it.
  const drawStarted = performance.now();
  useLayoutEffect(() => feed.drew(performance.now() - drawStarted));
  useSyncExternalStore(feed.subscribe, feed.version);
  const { columns, rows } = useWindowSize();
  const { write } = useStdout();
  const { view, permissions } = session;
  const [exitArmed, setExitArmed] = useState(false);
  const exitTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const [inputLines, setInputLines] = useState(1);

  // Elapsed times move on while anything runs, even when no event arrives; through the feed,
  // so these draws are spaced like the others.
  const running = session.busy || view.agents.size > 0 || view.tasks.size > 0;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(feed.changed, 1000);
    return () => clearInterval(timer);
  }, [running, feed]);
  useEffect(() => () => clearTimeout(exitTimer.current), []);

  // A question from the foreground takes the prompt's place; one from the background waits on
  // a line of its own until the person opens it (Tab), so the conversation goes on meanwhile.
  const [answering, setAnswering] = useState(false);
  const foregroundQuestion = permissions.foreground();
  const backgroundQuestion = foregroundQuestion ? undefined : permissions.current();
  const pending = foregroundQuestion ?? (answering ? backgroundQuestion : undefined);
  useEffect(() => {
    if (answering && !backgroundQuestion) setAnswering(false);
  }, [answering, backgroundQuestion]);
  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (exitArmed) return onExit();
      setExitArmed(true);
      clearTimeout(exitTimer.current);
      exitTimer.current = setTimeout(() => setExitArmed(false), EXIT_WINDOW_MS);
      return;
    }
    if (key.ctrl && input === 'b') {
      const sent = session.sendToBackground();
      view.add(
        sent > 0
          ? {
              kind: 'notice',
              tone: 'info',
              text: `Sent ${sent === 1 ? 'the sub-agent' : `${sent} sub-agents`} to the background.`,
            }
          : { kind: 'notice', tone: 'info', text: 'No sub-agent is running in the foreground.' },
      );
      return feed.flush();
    }
    if (key.ctrl && input === 'o') {
      showLatestResult(session);
      return feed.flush();
    }
    if (key.tab && !pending && backgroundQuestion) {
      setAnswering(true);
      return;
    }
    // Esc answers an open question (no); otherwise it ends the main agent's turn.
    if (key.escape && !pending && session.interrupt()) feed.flush();
  });

  const submit = (text: string) => {
    if (text.startsWith('/') && !text.startsWith('//')) {
      const context = {
        session,
        exit: onExit,
        clearScreen: () => write('\u001b[2J\u001b[3J\u001b[H'),
      };
      void runSlashCommand(context, text).finally(feed.flush);
      return;
    }
    session.submit(text.startsWith('//') ? text.slice(1) : text);
    feed.flush();
  };

  // A burst of finished entries (a hundred children returning together) is written a few per
  // draw, so no single draw holds up the agents for long; the rest follow in the next draws.
  const all = view.written();
  const shownCount = useRef({ epoch: view.epoch, count: 0 });
  if (shownCount.current.epoch !== view.epoch) shownCount.current = { epoch: view.epoch, count: 0 };
  const count = Math.min(all.length, shownCount.current.count + MAX_NEW_ENTRIES_PER_DRAW);
  shownCount.current.count = count;
  const written = useMemo(() => all.slice(0, count), [all, count]);
  useEffect(() => {
    if (count < all.length) feed.changed();
  });

  const at = now();
  const bottomRows =
    (pending ? QUESTION_ROWS : INPUT_CHROME + inputLines) +
    (backgroundQuestion && !pending ? BACKGROUND_QUESTION_ROWS : 0);
  // Under the rows' count: a frame as tall as the terminal makes Ink clear the screen and draw
  // everything again (flicker). Counted: the status line, the working line, the margin above.
  const available = Math.max(2, rows - 1 - bottomRows - 1 - (session.busy ? 1 : 0) - 1);
  const streaming = view.streaming.trim();
  // Agents whose call returned while they work: a panel of their own (a title and a margin),
  // a third of the rows at most.
  const background = backgroundLines(view, Math.max(1, Math.floor(available / 3)));
  const panelRows = background.length > 0 ? background.length + 2 : 0;
  const foregroundRows = Math.max(1, available - panelRows);
  // A taller screen shows no more rows: past a screenful, a count says more than rows do, and
  // each row drawn costs time the agents could use.
  const treeRows = Math.min(
    MAX_TREE_ROWS,
    streaming ? Math.max(1, Math.floor(foregroundRows / 2)) : foregroundRows,
  );
  const lines = foregroundLines(view, treeRows);
  const streamRows = Math.max(1, foregroundRows - lines.length);

  return (
    <>
      <Static key={view.epoch} items={written}>
        {(entry) => <EntryView key={entry.id} entry={entry} />}
      </Static>
      <Box flexDirection="column" width={columns}>
        {streaming ? (
          <Box marginTop={1}>
            <MarkdownText text={streaming} lastLines={{ rows: streamRows, width: columns }} />
          </Box>
        ) : null}
        {lines.length > 0 ? (
          <Box flexDirection="column" marginTop={streaming ? 0 : 1}>
            {lines.map((line) => (
              <TreeLineView key={line.key} line={line} now={at} width={columns} />
            ))}
          </Box>
        ) : null}
        {background.length > 0 ? (
          <Box flexDirection="column" marginTop={1}>
            <Text dimColor>Background</Text>
            {background.map((line) => (
              <TreeLineView key={line.key} line={line} now={at} width={columns} />
            ))}
          </Box>
        ) : null}
        {session.busy ? (
          <WorkingLine
            elapsedMs={at - (session.turnStartedAt ?? at)}
            queued={session.queued.length}
          />
        ) : null}
        {pending ? (
          <PermissionPrompt
            key={pending.id}
            pending={pending}
            waiting={permissions.pending().length - 1}
            onAllowOnce={() => permissions.allowOnce(pending.id)}
            onAllowAlways={(rule) => {
              permissions.allowAlways(pending.id, rule);
              view.add({
                kind: 'notice',
                tone: 'success',
                text: `Always allowed ${rule} for this session, in every agent.`,
              });
            }}
            onDeny={(note) => permissions.deny(pending.id, note)}
          />
        ) : null}
        {backgroundQuestion && !pending ? (
          <BackgroundQuestionLine
            pending={backgroundQuestion}
            waiting={permissions.pending().length - 1}
          />
        ) : null}
        {/* Hidden, not unmounted, while a question is open: what was typed stays. */}
        <Box display={pending ? 'none' : 'flex'} flexDirection="column">
          <PromptInput
            history={session.sent}
            onSubmit={submit}
            isActive={!pending}
            maxLines={Math.max(1, rows - 12)}
            onLinesChange={setInputLines}
            placeholder={session.busy ? 'Type ahead; Enter queues it' : 'Ask anything · /help'}
          />
        </Box>
        <StatusLine
          model={session.setup.modelName}
          sessionId={session.sessionId}
          usage={view.usage}
          costUsd={view.costUsd}
          permissionMode={session.setup.permissionMode}
          exitArmed={exitArmed}
        />
      </Box>
    </>
  );
}

/** Ctrl+O: the whole result of the background task that ended last, below the conversation. */
function showLatestResult(session: InteractiveSession): void {
  const taskId = session.view.lastEndedTask;
  const task = taskId === undefined ? undefined : session.tasks().find((t) => t.taskId === taskId);
  if (!task) {
    session.view.add({ kind: 'notice', tone: 'info', text: 'No background task has ended yet.' });
    return;
  }
  const who =
    task.kind === 'local_bash'
      ? 'Bash'
      : task.kind === 'local_workflow'
        ? 'Workflow'
        : (task.agentType ?? 'agent');
  const text = session.taskOutput(task.taskId).trim() || task.error || '(no output)';
  session.view.add({ kind: 'output', title: `Result · ${who}  ${task.description}`, text });
}
