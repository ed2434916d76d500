// The read-only check against real bash: generated commands full of path tricks, quoting,
// expansions, redirections and options are classified, and every one called read-only is run in
// a sandbox with secrets just outside it. None may show a secret or change a file.
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeOutsideSandbox,
  type OutsideSandbox,
  runBash,
} from '../testing/hostile/outside-sandbox.js';
import { commandLine } from '../testing/hostile/shell-command-arbitrary.js';
import { checkReadOnlyCommand } from './read-only-command.js';

/** Fixed so CI is deterministic; set WARREN_PROPERTY_SEED to explore other commands. */
const SEED = Number(process.env.WARREN_PROPERTY_SEED ?? 20_260_808);
const RUNS = Number(process.env.WARREN_PROPERTY_RUNS ?? 400);

let sandbox: OutsideSandbox;
/** The name of a file outside: it shows only if a command lists the outside directory. */
let secretName: string;
/** The value of an environment variable: it shows only if a command prints the environment. */
let secretVariable: string;

beforeAll(async () => {
  sandbox = await makeOutsideSandbox();
  const { project, outside, root, secret } = sandbox;
  secretName = `name-${secret.toLowerCase()}`;
  secretVariable = `ENV-${secret}`;
  await writeFile(path.join(outside, secretName), 'x\n');
  // git reads ~/.gitconfig; it must never be shown.
  await writeFile(path.join(outside, '.gitconfig'), `[user]\n\tname = ${secret}\n`);
  await symlink(path.join(outside, 'canary.txt'), path.join(project, 'abs_link'));
  await symlink('../outside/nothing-yet', path.join(project, 'dangling'));
  await writeFile(path.join(project, 'list.txt'), `../outside/canary.txt\n${outside}/canary.txt\n`);
  await writeFile(path.join(project, 'list0'), `../outside/canary.txt\0link_file\0`);
  // Names a pattern could expand into options.
  await writeFile(path.join(project, '--files0-from=list0'), '');
  await writeFile(path.join(project, '-L'), '');
  await mkdir(path.join(project, 'other'));
  execFileSync('git', ['init', '-q', project]);
  execFileSync('git', ['-C', project, 'add', 'a.js', 'notes.txt', 'sub/b.txt']);
  execFileSync('git', [
    ...['-C', project, '-c', 'user.name=t', '-c', 'user.email=t@example.com'],
    ...['commit', '-q', '-m', 'first'],
  ]);
  // What the command's shell and the check both see: HOME and OLDPWD outside, CDPATH above.
  vi.stubEnv('HOME', outside);
  vi.stubEnv('OLDPWD', outside);
  vi.stubEnv('CDPATH', root);
  vi.stubEnv('WARREN_CANARY', secretVariable);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(sandbox.root, { recursive: true, force: true });
});

/**
 * Every name under `dir` with its size: what a read-only command must leave as it was. `.git` is
 * left out: `git status` refreshes the index's timestamps, as it does for any reader.
 */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => !name.split(path.sep).includes('.git'))
    .map((name) => `${name}:${lstatSync(path.join(dir, name)).size}`)
    .sort();
}

describe('the read-only check, run against real bash', () => {
  it(`never lets a read-only command show what is outside or change a file (seed ${SEED}, ${RUNS} runs)`, () => {
    const { project, root, secret, scope } = sandbox;
    const before = snapshot(root);
    let readOnly = 0;
    fc.assert(
      fc.property(commandLine, (command) => {
        if (!checkReadOnlyCommand(command, scope).readOnly) return;
        readOnly++;
        const output = runBash(command, project, process.env, 1_500);
        for (const leaked of [secret, secretName, secretVariable]) {
          if (output.includes(leaked)) {
            throw new Error(
              `${JSON.stringify(command)} is read-only but showed ${leaked}:\n${output}`,
            );
          }
        }
        expect(snapshot(root)).toEqual(before);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    console.log(
      `read-only property: seed ${SEED}, ${RUNS} commands, ${readOnly} called read-only and run`,
    );
    // A generator that only makes refused commands would prove nothing.
    expect(readOnly).toBeGreaterThan(RUNS / 10);
  }, 120_000);
});
