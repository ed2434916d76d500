// Mounts the UI with Ink on the terminal: Ctrl+C is a key here (the app asks for it twice), draws
// are capped and only changed lines are rewritten, and a failure inside the UI becomes one line,
// never a stack trace.

import { render, Text } from 'ink';
import { Component, type ReactNode } from 'react';
import { messageOf } from '../../core/error-message.js';
import { App } from './app.js';
import type { ChangeFeed } from './change-feed.js';
import type { Terminal } from './interactive-command.js';
import type { InteractiveSession } from './interactive-session.js';
import type { Theme } from './theme.js';
import { ThemeContext } from './theme-context.js';

export interface RunningUi {
  /** Resolves when the person asks to leave (Ctrl+C twice, `/exit`) or `requestExit` is called. */
  exitRequested: Promise<void>;
  requestExit(): void;
  /** Draws the last frame and gives the terminal back. */
  unmount(): Promise<void>;
}

export function startUi(params: {
  session: InteractiveSession;
  feed: ChangeFeed;
  terminal: Terminal;
  theme: Theme;
}): RunningUi {
  let requestExit = () => {};
  const exitRequested = new Promise<void>((resolve) => {
    requestExit = resolve;
  });
  const instance = render(
    <ThemeContext.Provider value={params.theme}>
      <UiErrorBoundary onError={() => requestExit()}>
        <App session={params.session} feed={params.feed} onExit={() => requestExit()} />
      </UiErrorBoundary>
    </ThemeContext.Provider>,
    {
      stdin: params.terminal.stdin,
      stdout: params.terminal.stdout,
      exitOnCtrlC: false,
      // The caller made sure there is a terminal; Ink would draw only a last frame in CI.
      interactive: true,
      maxFps: 20,
      // Ink's part of a draw, beside React's that the app measures: the feed spaces draws by both.
      onRender: ({ renderTime }) => params.feed.drew(renderTime),
      incrementalRendering: true,
      kittyKeyboard: { mode: 'auto' },
    },
  );
  return {
    exitRequested,
    requestExit: () => requestExit(),
    async unmount() {
      params.feed.flush();
      await instance.waitUntilRenderFlush();
      instance.unmount();
      await instance.waitUntilExit().catch(() => {});
    },
  };
}

/** A failure while drawing: one line, and the session ends as if asked to. */
class UiErrorBoundary extends Component<
  { onError: () => void; children: ReactNode },
  { message: string | undefined }
> {
  override state = { message: undefined as string | undefined };

  static getDerivedStateFromError(error: unknown) {
    return { message: messageOf(error) };
  }

  override componentDidCatch(): void {
    this.props.onError();
  }

  override render() {
    if (this.state.message === undefined) return this.props.children;
    return <Text>{`warren: internal error in the terminal UI: ${this.state.message}`}</Text>;
  }
}
