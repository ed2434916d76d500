// A cloned repository whose files are FIFOs, devices or symlinks to them: warren names each
// path and goes on (or stops with exit 2 for a file it cannot run without); it never waits on
// one. Runs the built CLI (`npm test` builds first).
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWarren } from '../testing/cli-process.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';

const cli = useCliSandbox();
const { project } = cli;

/** Long enough for a run, far shorter than forever: a hang is killed and fails its test. */
const HANG_LIMIT_MS = 20_000;

/** `warren <args>` in the project, killed if it is still running after HANG_LIMIT_MS. */
function warren(args: readonly string[]) {
  return runWarren([...args, ...cli.againstServer()], {
    cwd: project(),
    env: cli.env(),
    timeoutMs: HANG_LIMIT_MS,
  });
}

async function fifoAt(relative: string): Promise<string> {
  const file = join(project(), relative);
  await mkdir(join(file, '..'), { recursive: true });
  execFileSync('mkfifo', [file]);
  return file;
}

async function linkAt(relative: string, target: string): Promise<void> {
  const file = join(project(), relative);
  await mkdir(join(file, '..'), { recursive: true });
  await symlink(target, file);
}

describe('warren -p in a repository of FIFOs and devices', () => {
  it('names every hostile agent, instruction, import and skill file and finishes the run', async () => {
    await mkdir(join(project(), '.git'));
    await fifoAt('.warren/agents/pipe.md');
    await linkAt('.claude/agents/stdin.md', '/dev/stdin');
    await linkAt('.codex/agents/zero.toml', '/dev/zero');
    await linkAt('AGENTS.md', await fifoAt('elsewhere/agents-pipe'));
    await writeFile(join(project(), 'WARREN.md'), 'Read @docs/pipe.md first.');
    await fifoAt('docs/pipe.md');
    await fifoAt('.warren/skills/deploy/SKILL.md');
    cli.server.enqueue({ text: 'done' });

    const run = await warren(['-p', 'hello']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('done');
    for (const name of ['pipe.md', 'stdin.md', 'zero.toml', 'AGENTS.md', 'SKILL.md']) {
      expect(run.stderr).toMatch(new RegExp(`${name.replace('.', '\\.')}.*not a regular file`));
    }
    expect(run.stderr).toMatch(/WARREN\.md:1: the import docs\/pipe\.md is a FIFO.*not read/);
  });

  it.each([
    ['.warren/settings.json', ['-p', 'hi']],
    ['.mcp.json', ['-p', 'hi']],
  ])('stops with exit 2 naming %s when it is a FIFO', async (relative, args) => {
    await fifoAt(relative);
    const run = await warren(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${relative}: is a FIFO (named pipe), not a regular file`);
  });

  it('stops with exit 2 naming a --settings or --mcp-config path that is a device', async () => {
    for (const flag of ['--settings', '--mcp-config']) {
      const run = await warren(['-p', 'hi', flag, '/dev/stdin']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/not a regular file/);
    }
  });
});
