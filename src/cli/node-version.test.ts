// bin/warren.js under a Node older than package.json's engines: the refusal a user of their own
// project sees. Runs only where such a Node is installed (system Node 20 on the CI image).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WARREN_BIN } from '../testing/cli-process.js';
import { makeTempDir } from '../testing/temp-dir.js';

/** A `node` on PATH older than 22.12, if there is one. */
function oldNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (!existsSync(node)) continue;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 12)) return node;
  }
  return undefined;
}

const node = oldNode();

describe.skipIf(node === undefined)('warren on a Node older than 22.12', () => {
  it("says what to install, not this repository's pinned Node, in a user's own project", async () => {
    const project = await makeTempDir('warren-old-node-');
    const run = spawnSync(node as string, [WARREN_BIN, '-p', 'hi'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^warren: needs Node 22\.12 or newer, this is v\d+\.\d+\.\d+\. Install Node 24/,
    );
    expect(run.stderr).toContain('nvm install 24');
    expect(run.stderr).not.toMatch(/pinned|npx warren/);
  });
});
