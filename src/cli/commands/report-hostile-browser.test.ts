// `warren report` on a session whose transcripts a stranger wrote: markup in every field is
// shown as text and never runs, and the page's policy would stop inline script even if a field
// slipped through unescaped. Proved in headless Chromium (Debian's `chromium`), offline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, requireChromiumInCi } from '../../testing/chromium.js';
import { runWarren } from '../../testing/cli-process.js';
import {
  HOSTILE_SESSION_ID,
  writeHostileSession,
} from '../../testing/hostile/hostile-transcript.js';
import { makeTempDir } from '../../testing/temp-dir.js';

const CHROMIUM = findChromium();

/** The page's globals as the callbacks below read them; this project compiles without DOM types. */
interface PageGlobals {
  __ran?: string[];
  document: {
    body: { textContent: string; insertAdjacentHTML(where: string, html: string): void };
  };
}

describe('the report page of a hostile session', () => {
  it('has a browser to test with in CI (.ci/run installs Debian chromium)', requireChromiumInCi);

  describe.skipIf(!CHROMIUM)(
    'in Chromium (skipped when no chromium binary is found: apt-get install chromium, or set WARREN_CHROMIUM)',
    () => {
      let dir: string;
      let file: string;
      let fields: string[];
      let browser: Browser;

      beforeAll(async () => {
        dir = await makeTempDir('warren-hostile-report-');
        fields = await writeHostileSession(dir);
        file = join(dir, 'report.html');
        const run = await runWarren(
          ['report', HOSTILE_SESSION_ID, '--session-dir', dir, '--html', file],
          { env: { HOME: dir } },
        );
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      }, 60_000);
      afterAll(async () => {
        await browser?.close();
      });

      it('runs no script from any transcript field, with every agent opened', async () => {
        const context = await browser.newContext({ offline: true });
        const page = await context.newPage();
        const fetched: string[] = [];
        page.on('request', (request) => fetched.push(request.url()));
        await page.goto(`file://${file}`);
        const rows = page.locator('.row[data-agent]');
        expect(await rows.count()).toBe(2);
        for (let index = 0; index < 2; index++) await rows.nth(index).click();
        await page.waitForTimeout(200);

        const ran = await page.evaluate(() => (globalThis as unknown as PageGlobals).__ran ?? []);
        expect(ran).toEqual([]);
        // The markup is on the page as text: escaped, not dropped.
        const text = await page.evaluate(
          () => (globalThis as unknown as PageGlobals).document.body.textContent,
        );
        for (const field of ['main.description', 'child.message.content', 'main.tool.output']) {
          expect(text).toContain(`<script>(window.__ran=window.__ran||[]).push('${field}')`);
        }
        expect(fetched).toEqual([`file://${file}`]);
        await context.close();
      });

      it('escapes every payload in the file itself', () => {
        const html = readFileSync(file, 'utf8');
        expect(fields.length).toBeGreaterThan(50);
        expect(html).not.toMatch(/<script>\(window\.__ran/);
        expect(html).not.toMatch(/<img src=x/);
        expect(html).not.toMatch(/<svg onload/);
      });

      it("allows only the page's own script, by its hash", async () => {
        const html = readFileSync(file, 'utf8');
        const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
        expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
        expect(policy?.split('; ').find((part) => part.startsWith('script-src'))).not.toContain(
          'unsafe-inline',
        );
        // Markup put into the page after it loaded (as an unescaped field would be) cannot run.
        const page = await browser.newPage();
        await page.goto(`file://${file}`);
        await page.evaluate(() => {
          const body = (globalThis as unknown as PageGlobals).document.body;
          body.insertAdjacentHTML(
            'beforeend',
            `<img src=x onerror="(window.__ran=window.__ran||[]).push('late')">`,
          );
        });
        await page.waitForTimeout(200);
        expect(
          await page.evaluate(() => (globalThis as unknown as PageGlobals).__ran ?? []),
        ).toEqual([]);
        // The page's own script still works: a click shows a transcript.
        await page.locator('.row[data-agent]').first().click();
        expect(await page.locator('.transcript:visible').count()).toBe(1);
        await page.close();
      });
    },
  );
});
