// Which shell commands of an isolated agent leave its worktree: every way out named in the issue
// (cd outside, git -C, --git-dir, --work-tree, GIT_DIR=, GIT_WORK_TREE=, paths into the main
// checkout by absolute path, `..` or symlink), hidden by quoting, wrappers or substitutions; and
// the everyday commands that stay inside and must not be flagged.
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import { type CommandScope, commandLeavesWorktree } from './command-leaves-worktree.js';
import { decodeAnsiC, simpleCommands, splitShellCommands } from './shell-words.js';

const dir = useTempDir('warren-escape-');
let scope: CommandScope;
let main: string;
let worktree: string;

beforeEach(async () => {
  main = path.join(dir(), 'repo');
  worktree = path.join(main, '.warren', 'worktrees', 'agent_1');
  await mkdir(path.join(worktree, 'src'), { recursive: true });
  await mkdir(path.join(main, 'src'), { recursive: true });
  scope = { cwd: worktree, worktree, protectedDirs: [main, path.join(main, '.git')] };
});

const leaves = (command: string) => commandLeavesWorktree(command, scope);

describe('a command that leaves the worktree', () => {
  it.each([
    [
      'cd outside, by absolute path',
      () => `cd ${main} && git commit -am x`,
      /`cd .*` leaves the worktree/,
    ],
    ['cd outside, by ..', () => 'cd ../../.. && ls', /`cd \.\.\/\.\.\/\.\.` leaves the worktree/],
    ['cd to a temp dir', () => 'cd /tmp', /leaves the worktree \(for \/tmp\)/],
    ['cd with no directory (home)', () => 'cd; ls', /goes to the home directory/],
    ['cd -', () => 'cd - >/dev/null', /may be outside the worktree/],
    ['cd to a variable', () => 'cd "$OLDPWD"', /not known in advance/],
    ['pushd outside', () => `pushd ${main}`, /leaves the worktree/],
    [
      'git -C the main checkout',
      () => `git -C ${main} status`,
      /`git -C .*` runs git outside the worktree/,
    ],
    ['git -C by ..', () => 'git -C ../.. log', /runs git outside the worktree/],
    ['git --git-dir', () => `git --git-dir=${main}/.git log`, /--git-dir=.* points git at another/],
    [
      'git --git-dir as two words',
      () => `git --git-dir ${main}/.git log`,
      /`--git-dir` points git/,
    ],
    ['git --work-tree', () => `git --work-tree=${main} checkout .`, /--work-tree/],
    ['GIT_DIR=', () => `GIT_DIR=${main}/.git git log`, /sets GIT_DIR/],
    ['GIT_WORK_TREE=', () => `GIT_WORK_TREE=${main} git add -A`, /sets GIT_WORK_TREE/],
    ['export GIT_DIR', () => `export GIT_DIR=${main}/.git; git log`, /sets GIT_DIR/],
    ['GIT_DIR hidden in ANSI-C quotes', () => `export $'GIT\\x5fDIR'=/x; git log`, /sets GIT_DIR/],
    ['git -c core.worktree', () => `git -c core.worktree=${main} status`, /core\.worktree/],
    [
      'an absolute path into the main checkout',
      () => `echo hi > ${main}/src/a.ts`,
      /names .*src\/a\.ts.*outside the worktree/,
    ],
    [
      'a relative path out through ..',
      () => 'cat ../../../src/a.ts',
      /names \.\.\/\.\.\/\.\.\/src\/a\.ts/,
    ],
    ['a path into the git directory', () => `rm ${main}/.git/index`, /outside the worktree/],
    ["another agent's worktree", () => 'ls ../agent_2', /names \.\.\/agent_2/],
  ])('%s', async (_, command, reason) => {
    expect(await leaves(command())).toMatch(reason);
  });

  it.each([
    ['inside a subshell', () => `(cd ${main} && git status)`],
    ['inside a brace group', () => `{ cd ${main}; git status; }`],
    ['inside $(…)', () => `echo $(cd ${main} && git rev-parse HEAD)`],
    ['inside backticks', () => `echo \`git -C ${main} log\``],
    ['inside "$(…)"', () => `echo "$(git -C ${main} log)"`],
    ['through env and sudo', () => `env FOO=1 sudo -u me git -C ${main} log`],
    ['through env -C', () => `env -C ${main} git status`],
    ['through timeout 10', () => `timeout 10 git -C ${main} log`],
    ['through bash -c', () => `bash -lc 'cd ${main} && git commit -am x'`],
    ['through eval', () => `eval "git -C ${main} status"`],
    ['after a harmless first command', () => `ls && git -C ${main} status`],
    ['in a for loop', () => `for d in a b; do cd ${main}; done`],
    ['after a cd inside, by a longer ..', () => 'cd src && cat ../../../../src/a.ts'],
    ['when an earlier cd may have failed', () => 'cd no-such-dir; cd ../../..'],
    ['when the cd was in a subshell', () => '(cd src); cd ../../..'],
    ['when the cd was in a pipeline', () => 'cd src | cat; cd ..'],
    ['in `ls ..`, the folder of every worktree', () => 'ls ..'],
  ])('is caught %s', async (_, command) => {
    expect(await leaves(command())).toBeDefined();
  });

  it('is caught through a symlink inside the worktree that points into the main checkout', async () => {
    await symlink(path.join(main, 'src'), path.join(worktree, 'shortcut'));
    expect(await leaves('echo x > shortcut/a.ts')).toMatch(
      /through a symlink to .*repo\/src\/a\.ts/,
    );
    expect(await leaves('cd shortcut')).toMatch(/leaves the worktree/);
  });
});

describe('a command that stays in the worktree', () => {
  it.each([
    'ls -la',
    'git status && git diff HEAD~1 -- src/a.ts',
    'git log --oneline -5 main..HEAD',
    'git commit -am "fix: a bug in parser"',
    'git blame -C src/a.ts',
    'git -C src status',
    'cd src && ls && cd .. && git add -A',
    'npm test 2>&1 | tail -20',
    'grep -rn "TODO" src > /dev/null',
    'find . -name "*.ts" | xargs wc -l',
    'echo $HOME',
    'cat /etc/hosts',
    'curl -s https://example.com/x',
    "sed -i 's/a/b/' src/a.ts",
    'cd src && git status; ls',
    '(cd src) && ls',
  ])('%s', async (command) => {
    expect(await leaves(command)).toBeUndefined();
  });
});

/** Command lines made of shell's special pieces, where a lexer goes wrong if it can. */
const shellish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "'",
        '"',
        '$',
        '$(',
        "$'",
        ')',
        '(',
        '`',
        '\\',
        ' ',
        ';',
        '|',
        '&',
        '<',
        '>',
        '\n',
        '#',
      ),
      fc.constantFrom(
        'cd',
        'git',
        '-C',
        '..',
        '/',
        'GIT_DIR=',
        '\\x5f',
        '\\UFFFFFFFF',
        '{',
        '}',
        '~',
      ),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(''));

describe('splitShellCommands', () => {
  it('splits at separators and removes quotes', () => {
    const commands = simpleCommands(splitShellCommands(`a 'b c' "d e" f\\ g; h && i | j`));
    expect(commands.map((command) => command.words.map((word) => word.text))).toEqual([
      ['a', 'b c', 'd e', 'f g'],
      ['h'],
      ['i'],
      ['j'],
    ]);
  });

  it('records what connects each command to the next, and where subshells open and close', () => {
    const { steps } = splitShellCommands('a && (b; c) | d || e &');
    expect(
      steps.map((step) =>
        step.kind === 'command'
          ? `${step.command.words[0]?.text}${step.command.connector}`
          : step.kind,
      ),
    ).toEqual(['a&&', 'open', 'b;', 'c)', 'close', 'd||', 'e&']);
  });

  it('keeps redirect targets apart, without file descriptors', () => {
    const [command] = simpleCommands(splitShellCommands('make 2>&1 >build.log < in.txt'));
    expect(command?.words.map((word) => word.text)).toEqual(['make']);
    expect(command?.redirects.map((word) => word.text)).toEqual(['build.log', 'in.txt']);
  });

  it('hands back the bodies of substitutions as command lines of their own', () => {
    expect(splitShellCommands('a $(b $(c)) `d` <(e) "$(f)"').nested).toEqual([
      'b $(c)',
      'd',
      'e',
      'f',
    ]);
  });

  it('marks words that expansion decides', () => {
    const [command] = simpleCommands(splitShellCommands('x $HOME "a$B" *.ts {a,b} plain'));
    expect(command?.words.map((word) => word.dynamic)).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('never throws, whatever the command line (property)', () => {
    fc.assert(
      fc.property(shellish, (text) => {
        splitShellCommands(text);
      }),
    );
  });

  it('lets the check answer for any command line, never throw (property)', async () => {
    await fc.assert(
      fc.asyncProperty(shellish, async (text) => {
        await commandLeavesWorktree(text, scope);
      }),
      { numRuns: 200 },
    );
  });

  it("decodes bash's ANSI-C quoting", () => {
    expect(decodeAnsiC('GIT\\x5fDIR\\n\\101\\u00e9')).toBe('GIT_DIR\nAé');
    expect(decodeAnsiC('\\UFFFFFFFF')).toBe('\ufffd');
  });
});
