// The terminal UI in a real terminal: the built `warren` in an 80×24 tmux pane, a scripted
// model, keys typed with send-keys and the screen read back with capture-pane. What is asserted
// is what a person sees. Needs the build (`npm test` builds first) and tmux (`.ci/run`
// installs it).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantsOf, isGoneWithin, stillAlive } from '../../testing/process-liveness.js';
import { hasTmux } from '../../testing/tmux-terminal.js';
import { startWarrenInTmux, type WarrenInTmux } from '../../testing/warren-in-tmux.js';

const TMUX = hasTmux();
const E2E_TIMEOUT = 90_000;
/** A shell command that runs until the test writes the file `go` into the project. */
const WAIT_FOR_GO = 'until [ -f go ]; do sleep 0.1; done';
/** Every call runs without a question (--permission-mode bypassPermissions). */
const UNASKED = { args: ['--permission-mode', 'bypassPermissions'] };

let warren: WarrenInTmux | undefined;
afterEach(async () => {
  await warren?.close();
  warren = undefined;
});

/** Warren with the scripted model `demo`, whose turns are `turns` (YAML). */
async function start(
  turns: string,
  options: Parameters<typeof startWarrenInTmux>[0] | object = {},
) {
  warren = await startWarrenInTmux({ script: `model: demo\nturns:${turns}`, ...options });
  return warren;
}

describe('the terminal UI', () => {
  it('has tmux to test with in CI (.ci/run installs it)', () => {
    if (process.env.CI && !TMUX) throw new Error('no tmux in CI: apt-get install tmux');
  });

  describe.skipIf(!TMUX)(
    'in a real terminal (skipped without tmux)',
    { timeout: E2E_TIMEOUT },
    () => {
      it('shows a prompt and its streamed answer as Markdown, with the status line', async () => {
        const { terminal } = await start(`
  - match: { prompt: hello }
    text: "Hello! **Bold** words, and a list:\\n\\n- first\\n- second\\n\\n\`\`\`\\nconst x = 1;\\n\`\`\`"
    usage: { input: 1200, output: 300 }
`);
        const idle = await terminal.screen();
        expect(idle).toContain('❯  Ask anything · /help');
        expect(idle).toMatch(/scripted:demo · session …\S{8} · 0 tok/);
        await terminal.submit('hello');
        const screen = await terminal.waitFor('• second');
        expect(screen).toContain('❯ hello');
        expect(screen).toContain('Hello! Bold words, and a list:');
        expect(screen).toContain('• first');
        expect(screen).toContain('  const x = 1;');
        expect(screen).not.toContain('**');
        expect(screen).not.toContain('```');
        expect(screen).toMatch(/scripted:demo · session …\S{8} · 1\.5k tok/);
        // Every line fits the 80 columns of the terminal.
        for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
      });

      it("shows a running child's live row under the call that started it, then its summary line", async () => {
        const { terminal } = await start(
          `
  - match: { agent: "/^main$/", prompt: map }
    text: Starting a helper.
    tool_calls: [{ name: Agent, input: { description: map the code, prompt: Map it. } }]
  - match: { agent: "/^main/Agent#1/" }
    delay_ms: 300
    tool_calls: [{ name: Bash, input: { command: "sleep 4" } }]
    usage: { input: 1500, output: 20 }
  - match: { agent: "/^main/Agent#1/" }
    text: Mapped.
    usage: { input: 1600, output: 10 }
  - match: { agent: "/^main$/" }
    text: The map is done.
`,
          UNASKED,
        );
        await terminal.submit('map the code');
        // 80 columns: the description and the activity share what the counts leave.
        const live = await terminal.waitFor('· Bash sleep');
        expect(live).toMatch(
          /● general-purpose {2}map the c[^·]* · Bash sl[^·]* · 1 turn · 1 tool · 1\.5k tok · (\d+ ms|\d+\.\ds)/,
        );
        expect(live).toMatch(/● Working (\d+ ms|\d+\.\ds) · esc to interrupt/);
        // The elapsed time moves on while nothing else happens.
        const later = await terminal.waitFor(/1\.5k tok · [2-9]\.\ds/);
        expect(later).toContain('Bash sleep');
        const done = await terminal.waitFor('The map is done.');
        expect(done).toMatch(
          /✓ general-purpose {2}map the code — done \(2 turns, 1 tool, 3\.1k tok, \d+\.\ds\)/,
        );
        expect(done).not.toContain('● general-purpose');
      });

      it('asks before a call no rule allows: y runs it once, n denies it with a note for the model', async () => {
        const { terminal, project } = await start(`
  - match: { agent: "/^main$/", prompt: first }
    tool_calls: [{ name: Bash, input: { command: "echo one > one.txt" } }]
  - match: { agent: "/^main$/", prompt: first }
    text: Wrote one.
  - match: { agent: "/^main$/", prompt: second }
    tool_calls: [{ name: Bash, input: { command: "rm -rf build" } }]
  - match: { agent: "/^main$/", prompt: second, lastToolResult: "use git clean" }
    text: Understood, I will use git clean.
`);
        await terminal.submit('first');
        const question = await terminal.waitFor('Permission · main agent');
        expect(question).toContain('Bash: echo one > one.txt');
        expect(question).toContain('1. Yes (y)');
        expect(question).toContain('Always: Bash(echo one > one.txt) (a)');
        expect(question).toContain('No, and tell the model why (n)');
        await terminal.type('y');
        const ran = await terminal.waitFor('Wrote one.');
        expect(ran).toMatch(/✓ Bash echo one > one\.txt \(/);
        expect(ran).not.toContain('Permission ·');
        expect(await readFile(join(project, 'one.txt'), 'utf8')).toBe('one\n');

        await terminal.submit('second');
        await terminal.waitFor('Bash: rm -rf build');
        await terminal.type('n');
        await terminal.waitFor('Tell the model why');
        await terminal.submit('use git clean');
        const denied = await terminal.waitFor('Understood, I will use git clean.');
        expect(denied).toMatch(/✗ Bash rm -rf build \(/);
        expect(denied).toContain('⎿ The user did not allow Bash(rm -rf build). They said: use git');
      });

      it('remembers "always" (a) for the whole tree: neither the main agent nor a child asks again', async () => {
        const { terminal, project } = await start(`
  - match: { agent: "/^main$/" }
    tool_calls: [{ name: Bash, input: { command: "echo main >> log.txt" } }]
  - match: { agent: "/^main$/" }
    tool_calls:
      - { name: Bash, input: { command: "echo main >> log.txt" } }
      - { name: Agent, input: { description: log from a child, prompt: Log it. } }
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "echo main >> log.txt" } }]
  - match: { agent: "/^main/Agent#1/" }
    text: Logged.
  - match: { agent: "/^main$/" }
    text: Logged three times.
`);
        await terminal.submit('log it');
        await terminal.waitFor('Bash: echo main >> log.txt');
        await terminal.type('a');
        const screen = await terminal.waitFor('Logged three times.');
        expect(screen).toContain(
          'Always allowed Bash(echo main >> log.txt) for this session, in every agent.',
        );
        expect(screen).toMatch(/✓ general-purpose {2}log from a child — done/);
        expect(await readFile(join(project, 'log.txt'), 'utf8')).toBe('main\nmain\nmain\n');
      });

      it('stops the turn on Esc, and the conversation goes on', async () => {
        const { terminal } = await start(`
  - match: { prompt: slow }
    delay_ms: 30000
    text: Too late.
  - match: { prompt: again }
    text: Back again.
`);
        await terminal.submit('slow');
        await terminal.waitFor('esc to interrupt');
        await terminal.press('Escape');
        const stopped = await terminal.waitFor('Interrupted.');
        expect(stopped).not.toContain('esc to interrupt');
        await terminal.submit('again');
        await terminal.waitFor('Back again.');
      });

      it('exits on Ctrl+C twice, with every process it started stopped, background ones included', async () => {
        const { terminal } = await start(
          `
  - match: { agent: "/^main$/" }
    tool_calls:
      - { name: Bash, input: { command: "sleep 301", run_in_background: true } }
      - { name: Agent, input: { description: wait behind, prompt: Wait., run_in_background: true } }
      - { name: Agent, input: { description: wait here, prompt: Wait. } }
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "sleep 302" } }]
  - match: { agent: "/^main/Agent#2/" }
    tool_calls: [{ name: Bash, input: { command: "sleep 303" } }]
`,
          UNASKED,
        );
        const pid = await terminal.pid();
        await terminal.submit('wait');
        await terminal.waitFor(/wait here · Bash sleep 303/);
        await terminal.waitFor(/Background[\s\S]*wait behind · Bash sleep 3/);
        // The three commands (each may run under a shell of its own) are below warren now.
        await expect
          .poll(() => descendantsOf(pid).length, { timeout: 10_000 })
          .toBeGreaterThanOrEqual(3);
        const started = descendantsOf(pid);
        await terminal.press('C-c');
        await terminal.waitFor('Press Ctrl+C again to exit.');
        await terminal.press('C-c');
        expect(await terminal.waitForExit()).toBe(0);
        const last = await terminal.screen();
        expect(last).toMatch(/Go on with: warren --resume \S+/);
        expect(last).not.toMatch(/\n\s+at /);
        expect(await isGoneWithin(pid, 10_000)).toBe(true);
        // Checked by PID: each process it had started is gone, none was left to init.
        expect(await stillAlive(started, 10_000)).toEqual([]);
      });

      it('ends the turn on Esc while a background child runs on; its end wakes the idle main agent', async () => {
        const { terminal, project } = await start(
          `
  - match: { agent: "/^main$/", prompt: watch }
    text: Starting a watcher.
    tool_calls:
      - { name: Agent, input: { description: watch the logs, prompt: Watch., run_in_background: true } }
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "${WAIT_FOR_GO}" } }]
  - match: { agent: "/^main/Agent#1/" }
    text: The logs are quiet.
  # Before the slow turn: an interrupted turn is not used up, and its match would still fit.
  - match: { agent: "/^main$/", prompt: task-notification }
    text: Back again; the watcher says the logs are quiet.
  - match: { agent: "/^main$/", lastToolResult: '"status":"running"' }
    delay_ms: 30000
    text: Too late.
`,
          UNASKED,
        );
        await terminal.submit('watch');
        const working = await terminal.waitFor(
          /Background\n● general-purpose {2}watch[^\n]*Bash until/,
        );
        expect(working).toContain('esc to interrupt');
        await terminal.press('Escape');
        // The child goes on in its panel after the main agent's turn has ended (waited for as a
        // whole screen: a frame caught while Ink redraws may show the notice before the panel).
        const stopped = await terminal.waitFor(
          /Interrupted\.[\s\S]*Background\n● general-purpose {2}watch[^\n]*Bash until/,
        );
        expect(stopped).not.toContain('esc to interrupt');
        // It ends when the test says so, however slow the machine.
        await writeFile(join(project, 'go'), '');
        const ended = await terminal.waitFor(
          /✓ general-purpose {2}watch the logs — done in [^·\n]+ · background · ctrl\+o result/,
        );
        expect(ended).not.toContain('Background\n');
        // Nobody types: the idle main agent is woken, and reads the notification in a turn of
        // its own.
        const woken = await terminal.waitFor('Back again; the watcher says the logs are quiet.');
        expect(woken).toContain('Background work reported: the agent reads it.');
        expect(woken).not.toContain('❯ again');
        await terminal.press('C-o');
        const result = await terminal.waitFor('Result · general-purpose  watch the logs');
        expect(result).toContain('The logs are quiet.');
      });

      it('sends the running child to the background on Ctrl+B: the turn goes on without it', async () => {
        const { terminal, project } = await start(
          `
  - match: { agent: "/^main$/", prompt: map }
    tool_calls: [{ name: Agent, input: { description: map the code, prompt: Map it. } }]
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "${WAIT_FOR_GO}" } }]
  - match: { agent: "/^main/Agent#1/" }
    text: Mapped.
  - match: { agent: "/^main$/", lastToolResult: '"status":"running"' }
    text: It maps in the background; ask me anything meanwhile.
`,
          UNASKED,
        );
        await terminal.submit('map the code');
        const foreground = await terminal.waitFor('map the code · Bash until');
        expect(foreground).not.toContain('Background');
        await terminal.press('C-b');
        const sent = await terminal.waitFor('ask me anything meanwhile.');
        expect(sent).toContain('Sent the sub-agent to the background.');
        expect(sent).toMatch(/✓ Agent map the code \(in the background\)/);
        expect(sent).toMatch(/Background\n● general-purpose {2}map[^\n]* · Bash until/);
        expect(sent).not.toContain('esc to interrupt');
        await writeFile(join(project, 'go'), '');
        await terminal.waitFor(/✓ general-purpose {2}map the code — done in [^·\n]+ · background/);
      });

      it('lists the background tasks on /tasks and stops one with /tasks stop, its process with it', async () => {
        const { terminal } = await start(
          `
  - match: { agent: "/^main$/" }
    tool_calls:
      - { name: Agent, input: { description: tail forever, prompt: Tail., run_in_background: true } }
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "sleep 304" } }]
  - match: { agent: "/^main$/" }
    text: Tailing in the background.
`,
          UNASKED,
        );
        const pid = await terminal.pid();
        await terminal.submit('tail');
        await terminal.waitFor(/Background\n● general-purpose {2}tail forever · Bash sleep/);
        await expect.poll(() => descendantsOf(pid).length, { timeout: 10_000 }).toBeGreaterThan(0);
        const started = descendantsOf(pid);
        await terminal.submit('/tasks');
        const listed = await terminal.waitFor('/tasks open <n> shows one');
        expect(listed).toMatch(
          /1 {2}● running {2}general-purpose {2}tail forever {2}\d+ turns? · 1 tool/,
        );
        await terminal.submit('/tasks open 1');
        const opened = await terminal.waitFor('Task · general-purpose  tail forever');
        // Its transcript so far: the task it was given and the call it is in.
        expect(opened).toContain('❯ Tail.');
        expect(opened).toContain('→ Bash sleep 304');
        await terminal.submit('/tasks stop 1');
        const stopped = await terminal.waitFor(
          /✗ general-purpose {2}tail forever — stopped in [^\n]* · background/,
        );
        expect(stopped).not.toContain('Background\n');
        expect(await stillAlive(started, 10_000)).toEqual([]);
        await terminal.submit('/tasks');
        await terminal.waitFor(/1 {2}✗ cancelled {2}general-purpose {2}tail forever/);
      });

      it('asks for a background child on a line of its own, answered with Tab while the main conversation goes on', async () => {
        const { terminal, project } = await start(`
  - match: { agent: "/^main$/", prompt: start }
    tool_calls:
      - { name: Agent, input: { description: write a file, prompt: Write., run_in_background: true } }
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "echo bg > bg.txt" } }]
  - match: { agent: "/^main/Agent#1/" }
    text: Wrote bg.txt.
  - match: { agent: "/^main$/", prompt: start }
    text: Started the writer.
  - match: { agent: "/^main$/", prompt: chat }
    text: Chatting while it waits.
`);
        await terminal.submit('start');
        const asked = await terminal.waitFor(
          '? general-purpose  write a file (background) asks to use Bash(echo bg > bg.txt)',
        );
        expect(asked).toContain('tab to answer');
        expect(asked).not.toContain('Permission ·');
        // The prompt is the person's: the main agent answers while the question waits.
        await terminal.waitFor('Started the writer.');
        await terminal.submit('chat');
        const chatted = await terminal.waitFor('Chatting while it waits.');
        expect(chatted).toContain('asks to use Bash(echo bg > bg.txt)');
        await terminal.press('Tab');
        const question = await terminal.waitFor(
          'Permission · general-purpose  write a file (background)',
        );
        expect(question).toContain('Bash: echo bg > bg.txt');
        await terminal.type('y');
        await terminal.waitFor(/✓ general-purpose {2}write a file — done in [^\n]* · background/);
        expect(await readFile(join(project, 'bg.txt'), 'utf8')).toBe('bg\n');
      });

      it('writes no colour with NO_COLOR, and colour without it', async () => {
        const turns = `
  - { text: "Plain **text**." }
`;
        // An SGR sequence that sets a foreground colour: 30–37, 90–97, or 38;… (256 / RGB).
        // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are the subject
        const colourCode = /\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38)(?:;[0-9]+)*m/;
        const plain = await start(turns, { env: { NO_COLOR: '1' } });
        await plain.terminal.submit('hi');
        await plain.terminal.waitFor('Plain text.');
        expect(await plain.terminal.screen({ colours: true })).not.toMatch(colourCode);
        await plain.close();

        const coloured = await start(turns);
        await coloured.terminal.submit('hi');
        await coloured.terminal.waitFor('Plain text.');
        expect(await coloured.terminal.screen({ colours: true })).toMatch(colourCode);
      });
    },
  );
});
