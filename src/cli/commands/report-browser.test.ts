// `warren report` as a person sees it: the page of a real fan-out session opened in headless
// Chromium (Debian's `chromium`, driven by playwright-core) with the network cut off. It loads,
// shows every agent as a bar nested under its parent, and a click shows that agent's
// transcript. WARREN_UPDATE_DOCS_IMAGES=1 also writes the picture in docs/observability.md.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, requireChromiumInCi } from '../../testing/chromium.js';
import { runWarren } from '../../testing/cli-process.js';
import { type FanOutSession, runFanOutSession } from '../../testing/fan-out-session.js';

const DOCS_IMAGE = fileURLToPath(new URL('../../../docs/images/report.png', import.meta.url));

const CHROMIUM = findChromium();

/** The page's window as the callbacks below use it; this project compiles without DOM types. */
interface PageWindow {
  getComputedStyle(element: unknown): { paddingLeft: string; backgroundColor: string };
}

/** An element of the page; React's types declare DOM names without their members. */
interface PageElement {
  getBoundingClientRect(): { width: number };
}

describe('the report page in Chromium', () => {
  it('has a browser to test with in CI (.ci/run installs Debian chromium)', requireChromiumInCi);

  describe.skipIf(!CHROMIUM)(
    'with Chromium (skipped when no chromium binary is found: apt-get install chromium, or set WARREN_CHROMIUM)',
    () => {
      let session: FanOutSession;
      let browser: Browser;
      let file: string;

      beforeAll(async () => {
        session = await runFanOutSession();
        file = join(session.home, 'report.html');
        const run = await runWarren(
          ['report', session.sessionId, '--session-dir', session.sessionDir, '--html', file],
          { env: { HOME: session.home } },
        );
        expect(run.code).toBe(0);
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          // Root in a container has no user namespace for Chromium's sandbox.
          args: ['--no-sandbox'],
        });
      }, 60_000);
      afterAll(async () => {
        await browser?.close();
      });

      it('loads offline and shows every agent nested under its parent, coloured by status', async () => {
        const context = await browser.newContext({
          offline: true,
          viewport: { width: 1280, height: 560 },
        });
        const page = await context.newPage();
        const fetched: string[] = [];
        const problems: string[] = [];
        page.on('request', (request) => fetched.push(request.url()));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`file://${file}`);

        const rows = page.locator('.row[data-agent]');
        await expect.poll(() => rows.count()).toBe(7);
        const labels = await page.locator('.row[data-agent] .label').allInnerTexts();
        expect(labels).toEqual([
          'main',
          'explore review the loop',
          'explore review the tools',
          'explore review the model layer',
          'general-purpose review permissions',
          'explore check the rules',
          'explore review sessions',
        ]);
        // The grandchild is indented one level deeper than its parent.
        const indent = async (index: number) =>
          page
            .locator('.row[data-agent] .label')
            .nth(index)
            .evaluate((label) =>
              Number.parseFloat(
                (globalThis as unknown as PageWindow).getComputedStyle(label).paddingLeft,
              ),
            );
        expect(await indent(5)).toBeGreaterThan(await indent(4));
        expect(await indent(4)).toBeGreaterThan(await indent(0));
        // Every bar is drawn, inside its track, in the colour of a completed agent.
        const bars = await page.locator('.bar').evaluateAll((elements) =>
          elements.map((bar) => {
            const box = (bar as unknown as PageElement).getBoundingClientRect();
            const style = (globalThis as unknown as PageWindow).getComputedStyle(bar);
            return { width: box.width, colour: style.backgroundColor };
          }),
        );
        expect(bars).toHaveLength(7);
        for (const bar of bars) {
          expect(bar.width).toBeGreaterThan(2);
          expect(bar.colour).toBe('rgb(46, 157, 91)');
        }
        expect(await page.locator('.mark.turn').count()).toBe(12);
        expect(await page.locator('.mark.tool.error').count()).toBe(1);
        // Only the page itself was loaded: nothing from a network, no script error.
        expect(fetched).toEqual([`file://${file}`]);
        expect(problems).toEqual([]);
        await context.close();
      });

      it("shows an agent's transcript when it is clicked", async () => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 560 } });
        await page.goto(`file://${file}`);
        expect(await page.locator('.transcript:visible').count()).toBe(0);
        await page.locator('.row[data-agent]', { hasText: 'check the rules' }).click();
        const shown = page.locator('.transcript:visible');
        expect(await shown.count()).toBe(1);
        const text = await shown.innerText();
        expect(text).toContain('main/Agent#4/general-purpose/Agent#1/explore');
        expect(text).toContain('Check the rule parser.');
        expect(text).toContain('The rule parser has tests for every case.');
        await page.locator('.row[data-agent]', { hasText: 'review sessions' }).click();
        expect(await page.locator('.transcript:visible').innerText()).toContain(
          'Sessions write every line before showing it.',
        );
        await page.locator('.row[data-agent]', { hasText: 'review permissions' }).click();
        const path = process.env.WARREN_UPDATE_DOCS_IMAGES
          ? DOCS_IMAGE
          : join(session.home, 'report.png');
        await page.screenshot({ path, fullPage: true });
        await page.close();
      });
    },
  );
});
