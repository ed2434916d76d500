// The built `warren` terminal UI in a real terminal, for end-to-end tests: a scratch home and
// project, a scripted model, and the UI started in a tmux pane and waited for until it is
// ready to type into.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WARREN_BIN } from './cli-process.js';
import { makeTempDir } from './temp-dir.js';
import { TmuxTerminal } from './tmux-terminal.js';

export interface WarrenInTmuxOptions {
  /** The scripted model's script (YAML). */
  script: string;
  /** Flags after `--model scripted:<script> --session-dir <dir>`. */
  args?: string[];
  /** Files of the project, by relative path. */
  files?: Record<string, string>;
  /** Files of WARREN_HOME (`prices.json`, `settings.json`), by relative path. */
  homeFiles?: Record<string, string>;
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** Makes the project folder before warren starts (a git repository, say), after `files`. */
  makeProject?: (dir: string) => void;
  /** What to wait for before the test goes on; default READY. */
  waitFor?: string;
}

export interface WarrenInTmux {
  terminal: TmuxTerminal;
  home: string;
  project: string;
  sessionDir: string;
  /** Ends tmux (and warren, if it still runs). The scratch folders are left to the OS. */
  close(): Promise<void>;
}

/** What the UI shows once it is ready for a prompt. */
export const READY = '/help';

export async function startWarrenInTmux(options: WarrenInTmuxOptions): Promise<WarrenInTmux> {
  const home = await makeTempDir('warren-tui-');
  const project = join(home, 'project');
  const sessionDir = join(home, 'sessions');
  await mkdir(project);
  for (const [file, text] of Object.entries(options.files ?? {})) {
    await mkdir(join(project, file, '..'), { recursive: true });
    await writeFile(join(project, file), text);
  }
  for (const [file, text] of Object.entries(options.homeFiles ?? {})) {
    await mkdir(join(home, '.warren', file, '..'), { recursive: true });
    await writeFile(join(home, '.warren', file), text);
  }
  options.makeProject?.(project);
  const script = join(home, 'script.yaml');
  await writeFile(script, options.script);
  const terminal = await TmuxTerminal.start({
    command: [
      process.execPath,
      WARREN_BIN,
      '--model',
      `scripted:${script}`,
      '--session-dir',
      sessionDir,
      ...(options.args ?? []),
    ],
    cwd: project,
    env: { HOME: home, WARREN_HOME: join(home, '.warren'), LANG: 'C.UTF-8', ...options.env },
    columns: options.columns,
    rows: options.rows,
  });
  try {
    await terminal.waitFor(options.waitFor ?? READY, { timeoutMs: 30_000 });
  } catch (error) {
    await terminal.close();
    throw error;
  }
  return { terminal, home, project, sessionDir, close: () => terminal.close() };
}
