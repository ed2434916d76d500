// The whole UI in-process (ink-testing-library) over a real session and a scripted model: what
// the screen shows for a conversation, the commands, and the keys. The same flows in a real
// terminal are in tui-terminal.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEYS, renderUi, type UiFixture } from './ui-fixture.js';

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

const HELLO = `
model: demo
turns:
  - match: { prompt: hello }
    text: "Hi! **Bold** and \`code\`."
  - match: { prompt: again }
    text: Again here.
`;

describe('the terminal UI', () => {
  it('shows the prompt, the answer as Markdown, and the status line', async () => {
    ui = await renderUi(HELLO);
    expect(ui.frame()).toContain('Ask anything · /help');
    expect(ui.frame()).toMatch(/scripted:demo · session …\S{8} · 0 tok · \/help/);
    await ui.type('hello', KEYS.enter);
    const frame = await ui.waitFor('Hi! Bold and code.');
    expect(frame).toContain('❯ hello');
    expect(frame).not.toContain('**');
  });

  it('recalls earlier prompts with Up and Down, keeping the draft', async () => {
    ui = await renderUi(HELLO);
    await ui.type('hello', KEYS.enter);
    await ui.waitFor('Hi!');
    await ui.type('dra', KEYS.up);
    await ui.waitFor('❯ hello');
    expect(ui.frame()).not.toContain('❯ dra');
    await ui.type(KEYS.down);
    await ui.waitFor('❯ dra');
  });

  it('takes several lines with a backslash before Enter, and a paste whole', async () => {
    ui = await renderUi(HELLO);
    await ui.type('first\\', KEYS.enter, 'second');
    const frame = await ui.waitFor('second');
    expect(frame).toMatch(/❯ first\s*│\n│ {3}second/);
    await ui.type('\u001b[200~pasted\nlines\u001b[201~');
    await ui.waitFor(/secondpasted\s*│\n│ {3}lines/);
  });

  it('lists keys and commands on /help, and says which commands exist for an unknown one', async () => {
    ui = await renderUi(HELLO);
    await ui.type('/help', KEYS.enter);
    const help = await ui.waitFor('Keys and commands');
    for (const text of ['Esc', 'Ctrl+C twice', '/clear', '/cost', '/agents', '/resume']) {
      expect(help).toContain(text);
    }
    await ui.type('/nope', KEYS.enter);
    await ui.waitFor(
      'Unknown command /nope. Commands: /help, /clear, /cost, /agents, /tasks, /resume, /exit.',
    );
  });

  it('shows the usage tree on /cost and the definitions on /agents', async () => {
    ui = await renderUi(HELLO);
    await ui.type('hello', KEYS.enter);
    await ui.waitFor('Hi!');
    await ui.type('/cost', KEYS.enter);
    const cost = await ui.waitFor('total');
    expect(cost).toMatch(/Session \S+: 1 agent/);
    expect(cost).toMatch(/AGENT\s+TURNS\s+TOOLS\s+INPUT/);
    expect(cost).toMatch(/main\s+1\s+0/);
    await ui.type('/agents', KEYS.enter);
    const agents = await ui.waitFor('general-purpose');
    expect(agents).toMatch(/explore\s+built-in/);
  });

  it('starts over on /clear with a new session, and goes back to a saved one on /resume', async () => {
    ui = await renderUi(HELLO);
    await ui.type('hello', KEYS.enter);
    await ui.waitFor('Hi!');
    const first = ui.session.sessionId;
    await ui.type('/clear', KEYS.enter);
    await ui.waitFor('New session');
    expect(ui.session.sessionId).not.toBe(first);
    await ui.type('/resume', KEYS.enter);
    await ui.waitFor(first);
    await ui.type(`/resume ${first}`, KEYS.enter);
    const resumed = await ui.waitFor(`Resumed session ${first} (1 prompt so far).`);
    expect(resumed).toContain('Hi! Bold and code.');
    await ui.type('again', KEYS.enter);
    await ui.waitFor('Again here.');
    expect(ui.session.sessionId).toBe(first);
  });

  it("says the setup's warnings once, at the first prompt, even after a /clear before it", async () => {
    const definition = '---\nname: w\ndescription: d\ntools: Read, NoSuchTool\n---\nHi.\n';
    ui = await renderUi(HELLO, { files: { '.warren/agents/w.md': definition } });
    await ui.type('/clear', KEYS.enter);
    await ui.waitFor('New session');
    await ui.type('hello', KEYS.enter);
    await ui.waitFor('Hi!');
    await ui.type('again', KEYS.enter);
    await ui.waitFor('Again here.');
    const warnings = ui.session.view.entries.filter(
      (entry) => entry.kind === 'notice' && entry.tone === 'warning',
    );
    expect(warnings).toEqual([
      expect.objectContaining({ text: expect.stringContaining('NoSuchTool') }),
    ]);
  });

  it('shows a resumed session as it was left: its conversation, tool calls and usage so far', async () => {
    ui = await renderUi(`
model: demo
turns:
  - match: { prompt: hello }
    text: Reading it.
    tool_calls: [{ name: Glob, input: { pattern: "*.txt" } }]
  - text: The file is there.
  - match: { prompt: again }
    text: Again here.
`);
    await ui.type('hello', KEYS.enter);
    await ui.waitFor('The file is there.');
    await ui.type('again', KEYS.enter);
    await ui.waitFor('Again here.');
    const first = ui.session.sessionId;
    await ui.type('/clear', KEYS.enter);
    await ui.waitFor('New session');
    await ui.type(`/resume ${first}`, KEYS.enter);
    const resumed = await ui.waitFor(`Resumed session ${first} (2 prompts so far).`);
    const order = [
      '❯ hello',
      'Reading it.',
      'Glob *.txt',
      'The file is there.',
      '❯ again',
      'Again here.',
    ];
    const at = order.map((text) => resumed.indexOf(text));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // The scripted model has no price: the status line has its tokens, and says so of its cost.
    expect(resumed).toMatch(/session …\S{8} · [1-9][\d.]*k? tok · unpriced · \/help/);
  });

  it('lists saved sessions on /resume with their first prompt, folder and age, not empty ones', async () => {
    ui = await renderUi(HELLO);
    await ui.type('hello', KEYS.enter);
    await ui.waitFor('Hi!');
    const first = ui.session.sessionId;
    await ui.type('/clear', KEYS.enter);
    await ui.waitFor('New session');
    const empty = ui.session.sessionId;
    await ui.type('/resume', KEYS.enter);
    const listed = await ui.waitFor('Resume one with');
    expect(listed).toMatch(new RegExp(`${first}\\s+just now\\s+\\S*project\\s+hello`));
    expect(listed.slice(listed.lastIndexOf('Latest sessions'))).not.toContain(empty);
  });

  it('asks twice for Ctrl+C before it exits', async () => {
    ui = await renderUi(HELLO);
    await ui.type(KEYS.ctrlC);
    await ui.waitFor('Press Ctrl+C again to exit.');
    expect(ui.exitRequests()).toBe(0);
    await ui.type(KEYS.ctrlC);
    expect(ui.exitRequests()).toBe(1);
  });

  it('draws 100 children running at once within the 24 rows of the terminal, then their summaries', async () => {
    const calls = Array.from(
      { length: 100 },
      (_, index) =>
        `      - { name: Agent, input: { description: part ${index}, subagent_type: explore, prompt: Look. } }`,
    );
    const children = Array.from(
      { length: 100 },
      () => '  - { match: { agent: "/^main/Agent#/" }, delay_ms: 1500, text: Looked. }',
    );
    ui = await renderUi(
      [
        'model: demo',
        'turns:',
        '  - match: { agent: "/^main$/" }',
        '    tool_calls:',
        ...calls,
        ...children,
        '  - { match: { agent: "/^main$/" }, text: All parts looked at. }',
      ].join('\n'),
      { args: { maxParallel: 100 } },
    );
    await ui.type('go', KEYS.enter);
    const live = await ui.waitFor(/… and \d+ more running/);
    // What Ink redraws (everything under the last line written for good) fits the terminal.
    const redrawn = live.slice(live.indexOf('\n', live.lastIndexOf('❯ go')) + 1).split('\n');
    expect(redrawn.length).toBeLessThan(24);
    expect(live).toMatch(/● explore {2}part 0 · thinking · 1 turn · 0 tools/);
    const done = await ui.waitFor('All parts looked at.');
    expect(done.match(/✓ explore {2}part \d+ — done/g)).toHaveLength(100);
  }, 30_000);

  it('asks for a background agent on a line of its own, opened with Tab; Ctrl+O shows its result', async () => {
    ui = await renderUi(`
model: demo
turns:
  - match: { agent: "/^main$/", prompt: start }
    tool_calls:
      - { name: Agent, input: { description: write notes, prompt: Write., run_in_background: true } }
  - match: { agent: "/^main/Agent#1/" }
    tool_calls: [{ name: Bash, input: { command: "echo notes > notes.txt" } }]
  - match: { agent: "/^main/Agent#1/" }
    text: Notes written to notes.txt.
  - match: { agent: "/^main$/", prompt: start }
    text: Started the writer.
  - match: { agent: "/^main$/", prompt: chat }
    text: Still here.
`);
    await ui.type('start', KEYS.enter);
    const asked = await ui.waitFor('(background) asks to use Bash(echo notes > notes.txt)');
    expect(asked).toContain('tab to answer');
    expect(asked).toMatch(/Background\n● general-purpose {2}write notes/);
    expect(asked).not.toContain('Permission ·');
    // The prompt stays the person's: the main agent answers while the question waits.
    await ui.waitFor('Started the writer.');
    await ui.type('chat', KEYS.enter);
    await ui.waitFor('Still here.');
    await ui.type(KEYS.tab);
    await ui.waitFor('Permission · general-purpose  write notes (background)');
    await ui.type('y');
    await ui.waitFor(
      /✓ general-purpose {2}write notes — done in [^·\n]+ · background · ctrl\+o result/,
    );
    await ui.type(KEYS.ctrlO);
    const result = await ui.waitFor('Result · general-purpose  write notes');
    expect(result).toContain('Notes written to notes.txt.');
  });

  it('says so when Ctrl+B finds no sub-agent in the foreground', async () => {
    ui = await renderUi(HELLO);
    await ui.type(KEYS.ctrlB);
    await ui.waitFor('No sub-agent is running in the foreground.');
  });
});
