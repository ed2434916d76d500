// The picture in docs/tui.md and the README: the terminal UI in a real terminal (tmux, 100×24)
// while three sub-agents work, one of them with a child of its own. The screen is captured with
// its colours, turned into a page, and photographed in headless Chromium.
// WARREN_UPDATE_DOCS_IMAGES=1 writes docs/images/tui.png; otherwise the picture goes to a temp
// folder and only the screen is checked.
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ansiToHtmlPage } from '../../testing/ansi-html.js';
import { findChromium } from '../../testing/chromium.js';
import { hasTmux } from '../../testing/tmux-terminal.js';
import { startWarrenInTmux, type WarrenInTmux } from '../../testing/warren-in-tmux.js';

const DOCS_IMAGE = fileURLToPath(new URL('../../../docs/images/tui.png', import.meta.url));
const CHROMIUM = findChromium();

/** Children that keep working long enough to be photographed; the test ends them. */
const SCRIPT = `
model: demo
turns:
  - match: { agent: "/^main$/", prompt: "What does" }
    tool_calls: [{ name: Read, input: { file_path: README.md } }]
    usage: { input: 2100, output: 40 }
  - match: { agent: "/^main$/", prompt: "What does" }
    text: "A **billing service**: it turns usage into invoices.\\n\\n- \`src/meter\` counts usage\\n- \`src/invoice\` prices it"
    usage: { input: 2600, output: 90 }
  - match: { agent: "/^main$/", prompt: Review }
    text: Three reviewers, one area each.
    tool_calls:
      - { name: Agent, input: { description: review the meter, prompt: Review src/meter. } }
      - { name: Agent, input: { description: review permissions, prompt: Review src/auth. } }
      - { name: Agent, input: { description: review the invoices, subagent_type: explore, prompt: Review src/invoice. } }
    usage: { input: 3000, output: 160 }
  - match: { agent: "/^main/Agent#1/" }
    delay_ms: 200
    tool_calls: [{ name: Grep, input: { pattern: recordUsage } }]
    usage: { input: 1800, output: 30 }
  - match: { agent: "/^main/Agent#1/" }
    delay_ms: 300
    tool_calls: [{ name: Bash, input: { command: ./run-tests.sh meter } }]
    usage: { input: 2400, output: 25 }
  - match: { agent: "/^main/Agent#2/general-purpose$/" }
    delay_ms: 250
    tool_calls: [{ name: Agent, input: { description: check the rules, subagent_type: explore, prompt: Check the rules. } }]
    usage: { input: 1500, output: 45 }
  - match: { agent: "/^main/Agent#2/general-purpose/Agent#1/" }
    delay_ms: 300
    tool_calls: [{ name: Read, input: { file_path: src/auth/rules.ts } }]
    usage: { input: 900, output: 20 }
  - match: { agent: "/^main/Agent#2/general-purpose/Agent#1/" }
    delay_ms: 60000
    text: The rules hold.
  - match: { agent: "/^main/Agent#3/" }
    delay_ms: 60000
    text: Invoices are fine.
`;

let warren: WarrenInTmux | undefined;
afterEach(async () => {
  await warren?.close();
});

describe.skipIf(!hasTmux())('the picture of the terminal UI (skipped without tmux)', () => {
  it('shows a live tree of three children, one with a child of its own', async () => {
    warren = await startWarrenInTmux({
      script: SCRIPT,
      columns: 100,
      rows: 24,
      args: ['--allowed-tools', 'Bash(./run-tests.sh:*)'],
      // A made-up price, so the status line shows a cost.
      homeFiles: {
        'prices.json': JSON.stringify({
          models: { 'scripted:demo': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
        }),
      },
      files: {
        'README.md': '# billing\n',
        'src/auth/rules.ts': 'export const rules = [];\n',
        'run-tests.sh': '#!/bin/sh\nsleep 60\n',
      },
    });
    const { terminal, project } = warren;
    await chmod(join(project, 'run-tests.sh'), 0o755);
    await terminal.submit('What does this project do?');
    await terminal.waitFor('prices it');
    await terminal.submit('Review the code base, one area per reviewer.');
    const screen = await terminal.waitFor(
      /review the meter · Bash \.\/run-tests\.sh[\s\S]*review permissions · Agent explore[\s\S]*└ ● explore {2}check the rules · thinking[\s\S]*review the invoices · thinking/,
    );
    expect(screen).toContain('Three reviewers, one area each.');
    // Let the elapsed times tick past the first second, as a person would see them.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const page = ansiToHtmlPage(await terminal.screen({ colours: true }), {
      title: 'warren terminal UI',
    });
    if (!CHROMIUM) return;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const tab = await browser.newPage({ deviceScaleFactor: 2 });
      await tab.setContent(page);
      const path = process.env.WARREN_UPDATE_DOCS_IMAGES
        ? DOCS_IMAGE
        : join(warren.home, 'tui.png');
      await tab.locator('pre').screenshot({ path });
    } finally {
      await browser.close();
    }
    await terminal.press('C-c');
    await terminal.press('C-c');
    expect(await terminal.waitForExit()).toBe(0);
  }, 90_000);
});
