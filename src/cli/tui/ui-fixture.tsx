// Test fixture: the whole UI in-process under ink-testing-library, over a real session
// assembled by run-setup.ts from a scripted model's script, in a scratch project. Keys go in
// through the fake stdin; frames come back as text. Not built into dist/.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { makeTempDir } from '../../testing/temp-dir.js';
import type { InteractiveArgs } from '../parsed-args.js';
import { setUpRun } from '../run/run-setup.js';
import { App } from './app.js';
import { ChangeFeed } from './change-feed.js';
import { InteractiveSession } from './interactive-session.js';
import { themeFor } from './theme.js';
import { ThemeContext } from './theme-context.js';

/** What the fake stdin sends for the keys the tests press. */
export const KEYS = {
  enter: '\r',
  escape: '\u001b',
  ctrlC: '\u0003',
  up: '\u001b[A',
  down: '\u001b[B',
  backspace: '\u007f',
  tab: '\t',
  ctrlB: '\u0002',
  ctrlO: '\u000f',
} as const;

export interface UiFixture {
  session: InteractiveSession;
  project: string;
  /** Sends keys; resolves once React has had a chance to draw them. */
  type(...keys: string[]): Promise<void>;
  /** The last frame written. */
  frame(): string;
  /** Waits until the last frame shows the text; returns it. */
  waitFor(text: string | RegExp): Promise<string>;
  exitRequests(): number;
  unmount(): void;
}

export async function renderUi(
  script: string,
  options: { args?: Partial<InteractiveArgs>; files?: Record<string, string> } = {},
): Promise<UiFixture> {
  const home = await makeTempDir('warren-ui-');
  const project = join(home, 'project');
  await mkdir(project);
  for (const [file, text] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(project, file)), { recursive: true });
    await writeFile(join(project, file), text);
  }
  await writeFile(join(home, 'script.yaml'), script);
  const args: InteractiveArgs = {
    command: 'interactive',
    model: `scripted:${join(home, 'script.yaml')}`,
    baseUrl: undefined,
    maxTurns: undefined,
    maxDepth: 3,
    maxParallel: 10,
    timeBudgetMs: undefined,
    tokenBudget: undefined,
    stallTimeoutMs: undefined,
    permissionMode: undefined,
    allowedTools: undefined,
    disallowedTools: undefined,
    agentsDirs: [],
    mcpConfigs: [],
    trustProject: false,
    agent: undefined,
    cwd: project,
    sessionDir: join(home, 'sessions'),
    resume: undefined,
    continue: false,
    settings: undefined,
    requestTimeoutMs: undefined,
    record: undefined,
    replay: undefined,
    replayTools: false,
    executor: 'local',
    restateUrl: undefined,
    restateAdminUrl: undefined,
    ...options.args,
  };
  const io = {
    stdout: () => {},
    stderr: () => {},
    readStdin: async () => '',
    onInterrupt: () => () => {},
  };
  // Small draw interval: tests wait for frames, not for the throttle.
  const feed = new ChangeFeed({ intervalMs: 10 });
  let session: InteractiveSession | undefined;
  const setup = await setUpRun(args, io, {
    canUseTool: (prompt) => session!.permissions.ask(prompt),
  });
  session = new InteractiveSession(setup, { onChange: feed.changed });
  let exits = 0;
  const ui = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: '1' })}>
      <App session={session} feed={feed} onExit={() => exits++} />
    </ThemeContext.Provider>,
  );
  const frame = () => ui.lastFrame() ?? '';
  return {
    session,
    project,
    async type(...keys) {
      for (const key of keys) {
        ui.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    frame,
    async waitFor(text) {
      await expect
        .poll(frame, { timeout: 10_000 })
        .toSatisfy((shown: string) =>
          typeof text === 'string' ? shown.includes(text) : text.test(shown),
        );
      return frame();
    },
    exitRequests: () => exits,
    unmount() {
      feed.stop();
      ui.unmount();
      void session.close();
    },
  };
}

/**
 * For every test of the calling file: a 100×24 terminal, and the UI the test rendered with the
 * returned function unmounted after it.
 */
export function uiPerTest(): typeof renderUi {
  let ui: UiFixture | undefined;
  beforeEach(() => {
    // The fake terminal has 100 columns and no rows of its own: Ink asks the environment.
    vi.stubEnv('COLUMNS', '100');
    vi.stubEnv('LINES', '24');
  });
  afterEach(() => {
    ui?.unmount();
    ui = undefined;
    vi.unstubAllEnvs();
  });
  return async (script, options) => {
    ui?.unmount();
    ui = await renderUi(script, options);
    return ui;
  };
}
