// Where a Chromium to test with is: `WARREN_CHROMIUM`, else where Debian and others install it.
import { existsSync } from 'node:fs';

export function findChromium(): string | undefined {
  const candidates = [
    process.env.WARREN_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((path): path is string => path !== undefined && existsSync(path));
}

/** A CI run without Chromium fails loudly instead of skipping the browser tests. */
export function requireChromiumInCi(): void {
  if (process.env.CI && !findChromium()) {
    throw new Error('no Chromium in CI: apt-get install chromium, or set WARREN_CHROMIUM');
  }
}
