// A real terminal for tests: a program run in a tmux pane of a given size on a tmux server of
// its own (a socket in a temp folder, so parallel tests and people's own tmux never meet).
// Keys go in with send-keys, the screen comes back with capture-pane, as a person sees it.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Whether tmux is installed (`.ci/run` installs it; elsewhere the tests that need it skip). */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface TmuxTerminalOptions {
  /** The program and its arguments; run directly, not through a shell. */
  command: readonly string[];
  cwd: string;
  /** The whole environment of the program besides PATH (tmux adds TERM and TMUX). */
  env: Record<string, string>;
  columns?: number;
  rows?: number;
}

export interface WaitOptions {
  timeoutMs?: number;
}

export class TmuxTerminal {
  readonly #socket: string;
  readonly #dir: string;
  #exitCode: number | undefined;

  private constructor(dir: string) {
    this.#dir = dir;
    this.#socket = join(dir, 'tmux.sock');
  }

  static async start(options: TmuxTerminalOptions): Promise<TmuxTerminal> {
    const dir = await mkdtemp(join(tmpdir(), 'warren-tmux-'));
    const terminal = new TmuxTerminal(dir);
    // Read as the server starts: no status bar (the pane is the whole window), and a program
    // that exits leaves its pane, so its last screen and exit status can still be read.
    const config = join(dir, 'tmux.conf');
    await writeFile(config, 'set -g status off\nset -g remain-on-exit on\n');
    await run(
      'tmux',
      [
        '-S',
        terminal.#socket,
        '-f',
        config,
        'new-session',
        '-d',
        '-s',
        'main',
        '-x',
        String(options.columns ?? 80),
        '-y',
        String(options.rows ?? 24),
        '-c',
        options.cwd,
        `exec ${options.command.map(shellWord).join(' ')}`,
      ],
      // The server, and so the program, gets exactly this environment.
      { env: { PATH: process.env.PATH, ...options.env } },
    );
    return terminal;
  }

  /** Types text as it is: no key names. */
  async type(text: string): Promise<void> {
    await this.#tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Types text and presses Enter: a prompt or a command, sent. */
  async submit(text: string): Promise<void> {
    await this.type(text);
    await this.press('Enter');
  }

  /** Presses keys by tmux name: `Enter`, `Escape`, `C-c`, `Up`, `BSpace`, `S-Enter`. */
  async press(...keys: string[]): Promise<void> {
    for (const key of keys) await this.#tmux('send-keys', '-t', 'main', key);
  }

  /** The screen as text, one line per row, trailing spaces removed. */
  async screen(options: { colours?: boolean } = {}): Promise<string> {
    const { stdout } = await this.#tmux(
      'capture-pane',
      '-p',
      ...(options.colours ? ['-e'] : []),
      '-t',
      'main',
    );
    return stdout
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  }

  /** Waits until the screen shows the text (or matches), and returns that screen. */
  async waitFor(expected: string | RegExp, options: WaitOptions = {}): Promise<string> {
    return this.waitUntil(
      (screen) =>
        typeof expected === 'string' ? screen.includes(expected) : expected.test(screen),
      `the screen to show ${String(expected)}`,
      options,
    );
  }

  /** Waits until the screen no longer shows the text. */
  async waitForGone(text: string, options: WaitOptions = {}): Promise<string> {
    return this.waitUntil((screen) => !screen.includes(text), `"${text}" to go`, options);
  }

  async waitUntil(
    check: (screen: string) => boolean,
    what: string,
    { timeoutMs = 20_000 }: WaitOptions = {},
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (check(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
  }

  /** The program's process id while it runs. */
  async pid(): Promise<number> {
    const { stdout } = await this.#tmux('display-message', '-p', '-t', 'main', '#{pane_pid}');
    return Number(stdout.trim());
  }

  /** Waits for the program to exit; returns its exit status (128 + the signal that killed it). */
  async waitForExit({ timeoutMs = 15_000 }: WaitOptions = {}): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { stdout } = await this.#tmux(
        'display-message',
        '-p',
        '-t',
        'main',
        '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}',
      );
      const [dead, status, signal] = stdout.trim().split(':');
      if (dead === '1') {
        // tmux writes no status for 0, and no signal where it does not know the field.
        this.#exitCode = status ? Number(status) : signal ? 128 + Number(signal) : 0;
        return this.#exitCode;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `the program did not exit in ${timeoutMs} ms; the screen was:\n${await this.screen()}`,
    );
  }

  /** Ends the tmux server (and the program, if it still runs) and removes the socket. */
  async close(): Promise<void> {
    await this.#tmux('kill-server').catch(() => {});
    await rm(this.#dir, { recursive: true, force: true });
  }

  #tmux(...args: string[]): Promise<{ stdout: string }> {
    return run('tmux', ['-S', this.#socket, ...args], { encoding: 'utf8' });
  }
}

/** A word for the shell tmux runs the command with. */
function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
