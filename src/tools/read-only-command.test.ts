import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBash, useOutsideSandbox } from '../testing/hostile/outside-sandbox.js';
import { checkReadOnlyCommand, isReadOnlyCommand } from './read-only-command.js';

/** The reason a command is not read-only in `scope`; fails the test if it is read-only. */
function reasonFor(command: string, scope: { cwd: string; allowedDirs: string[] }): string {
  const verdict = checkReadOnlyCommand(command, scope);
  if (verdict.readOnly) throw new Error(`${command} was called read-only`);
  return verdict.reason;
}

describe('isReadOnlyCommand in a project without links out', () => {
  const sandbox = useOutsideSandbox({ linksOut: false });

  it.each([
    'ls -la',
    'pwd',
    'cat package.json',
    'head -n 20 src/index.ts',
    'tail -f log.txt',
    'wc -l sub/*.txt',
    'grep -rn "TODO" src',
    'rg --files',
    'rg -n "foo(bar" src',
    'echo "hello; rm -rf /"',
    "echo 'a > b'",
    'find . -name "*.ts" -type f',
    'git status',
    'git log --oneline -n 5',
    'git diff HEAD~1 -- src',
    'git show HEAD:README.md',
    'git --no-pager log',
    'git -C sub status',
    'git branch',
    'git branch -a',
    'git branch --list "feat/*"',
    'git tag -l "v1.*"',
    'git remote -v',
    'git stash list',
    'git log -- sub/*.txt',
    'ls && git status',
    'cat a.txt | sort | uniq -c | sort -rn | head',
    'ls 2>/dev/null || echo none',
    'grep foo file.txt 2>&1 | head',
    'cd sub && ls',
    'cd sub && cat ../a.js',
    'cat < a.js',
    'ls # a comment; rm -rf /',
    'sort -k 2 data.txt',
    'jq .version package.json',
    'jq .env package.json',
    'grep "end$" a.js',
    'grep -r "/api/v1" .',
    'cat missing/../../../etc/passwd',
    'echo *',
    'cat *',
    'grep -n a * sub/*',
    'ls -R',
    'find -L .',
    'grep -R a .',
  ])('accepts %s', (command) => {
    expect(checkReadOnlyCommand(command, sandbox().scope)).toEqual({ readOnly: true });
  });

  it.each([
    ['rm -rf build', 'not a command known to be read-only'],
    ['ls && rm -rf build', '`rm`'],
    ['ls; touch x', '`touch`'],
    ['ls\nrm x', '`rm`'],
    ['sleep 1 & rm x', '`sleep`'],
    ['echo hi > out.txt', 'redirects output'],
    ['echo hi >> out.txt', 'redirects output'],
    ['ls &> listing.txt', 'redirects output'],
    ['ls >& listing.txt', 'redirects output'],
    ['cat a 2> errors.txt', 'redirects output'],
    ['cat a.js <> a.js', 'reading and writing'],
    ['echo $(rm -rf /)', 'command substitution'],
    ['echo "$(touch x)"', 'command substitution'],
    ['echo `touch x`', 'command substitution'],
    ['(rm x)', 'subshell'],
    ['diff <(ls a) <(ls b)', 'process substitution'],
    ['cat <<EOF\nhi\nEOF', 'here-document'],
    ['cat <<< hi', 'here-document or here-string'],
    ['find . -name "*.tmp" -delete', '-delete'],
    ['find . -exec rm {} ;', 'braces'],
    ['find . -exec rm "{}" ;', '-exec'],
    ['find . $ACTION', 'variable'],
    ['sort -o sorted.txt data.txt', '-o'],
    ['sort --out=sorted.txt data.txt', '--output'],
    ['rg --pre ./evil.sh foo', '--pre'],
    ['uniq in.txt out.txt', 'uniq'],
    ['tree -R -H . -o x', 'tree'],
    ['git commit -m x', '`git commit`'],
    ['git push', '`git push`'],
    ['git -c core.pager=evil log', 'before the subcommand'],
    ['git branch new-feature', 'creates a branch'],
    ['git branch -v new-feature', 'creates a branch'],
    ['git branch -D old', 'not a listing option'],
    ['git tag v2.0', 'creates a tag'],
    ['git remote add origin url', 'not known to be read-only'],
    ['git remote -v add origin url', 'not known to be read-only'],
    ['git config user.name evil', 'git config'],
    ['git diff --output=patch.diff', 'writes files'],
    ['git log *', 'pattern'],
    ['git stash', 'not known to be read-only'],
    ['PAGER=evil git log', 'environment variables'],
    ['$EDITOR file.txt', 'variable'],
    ['./script.sh', 'not a command known to be read-only'],
    ['xargs rm < files.txt', '`xargs`'],
    ['ls | tee copy.txt', '`tee`'],
    ['sed -i s/a/b/ file', '`sed`'],
    ['ls **/*.js', 'globstar'],
    ['*.sh', 'program name is a pattern'],
    ["echo 'unterminated", 'unterminated quote'],
    ['cat a\u001b.js', 'control characters'],
    ['cd \\\n&& cat x', '$HOME'],
    ['', 'empty'],
  ])('refuses %s, saying why', (command, reason) => {
    expect(reasonFor(command, sandbox().scope)).toContain(reason);
  });

  it('is the boolean form of checkReadOnlyCommand', () => {
    expect(isReadOnlyCommand('ls', sandbox().scope)).toBe(true);
    expect(isReadOnlyCommand('rm x', sandbox().scope)).toBe(false);
  });

  it('checks paths against the process cwd when given no scope', () => {
    expect(isReadOnlyCommand('cat package.json')).toBe(true);
    expect(isReadOnlyCommand('cat /etc/hostname')).toBe(false);
  });
});

describe('reading outside the allowed directories', () => {
  const sandbox = useOutsideSandbox();
  const reason = (command: string) => reasonFor(command, sandbox().scope);

  it('does not call cat link_file read-only: a symlink in the project that leads out', () => {
    expect(reason('cat link_file')).toContain('outside the allowed directories');
    expect(reason('cat link_dir/canary.txt')).toContain('outside the allowed directories');
    expect(reason('cat < link_file')).toContain('outside the allowed directories');
  });

  it('resolves .. after a symlink as the kernel does, not on the text', () => {
    // link_dir/.. is the sandbox root, where outside/ is.
    expect(reason('cat link_dir/../outside/canary.txt')).toContain('outside');
  });

  it.each([
    'grep -R CANARY .',
    'grep -rS CANARY sub',
    'find -L .',
    'find . -follow',
    'ls -RL',
    'du -L -a',
    'tree -l',
    'rg -L CANARY',
    'rg --follow CANARY',
  ])('does not call %s read-only over a tree with a link out: it follows symlinks', (command) => {
    expect(reason(command)).toContain('follows symlinks');
  });

  it('accepts the recursive readers that follow only the links they are given, and they show nothing outside', () => {
    for (const command of ['grep -r CANARY .', 'grep -rn CANARY sub', 'find .', 'ls -R', 'du -a']) {
      expect(checkReadOnlyCommand(command, sandbox().scope)).toEqual({ readOnly: true });
      expect(runBash(command, sandbox().project)).not.toContain(sandbox().secret);
    }
  });

  it('does not call diff read-only on directories holding a link out: diff follows them', async () => {
    await mkdir(path.join(sandbox().project, 'other'));
    expect(reason('diff -r sub other')).toContain('sub/deep_link');
    expect(reason('diff sub other')).toContain('follows symlinks');
  });

  it('does not call cat {/etc/passwd,a.js} read-only: braces expand', () => {
    expect(reason('cat {/etc/passwd,a.js}')).toContain('braces');
    expect(reason('cat a{.js,}')).toContain('braces');
  });

  it('does not call input redirection from outside read-only', () => {
    expect(reason('cat < /etc/passwd')).toContain('/etc/passwd');
    expect(reason('head 0</etc/passwd')).toContain('/etc/passwd');
    expect(reason('cat 3</etc/passwd')).toContain('/etc/passwd');
    expect(reason('cat <../outside/canary.txt')).toContain('outside the allowed');
  });

  it.each([
    '~root/.bashrc',
    '~+/../outside/canary.txt',
    '~-/canary.txt',
    '~',
    '~/canary.txt',
    'x=~/canary.txt',
    'a:~/canary.txt',
  ])('does not call a tilde form read-only: cat %s', (arg) => {
    expect(reason(`cat ${arg}`)).toContain('tilde');
  });

  it('does not call ls, stat, readlink or git config read-only where they reach outside', () => {
    expect(reason('ls link_dir')).toContain('outside');
    expect(reason('ls -la ../outside')).toContain('outside');
    expect(reason('stat link_file')).toContain('outside');
    expect(reason('readlink -f link_dir')).toContain('outside');
    expect(reason('git config -l')).toContain('git config');
    expect(reason('git config --get user.name')).toContain('git config');
  });

  it('does not call a pattern read-only when it could match a link out or list outside', () => {
    expect(reason('cat *')).toContain('outside');
    expect(reason('cat link_*/*')).toContain('outside');
    expect(reason('echo link_dir/*')).toContain('lists');
    expect(reason('cat .*/outside/canary.txt')).toContain('outside');
    expect(reason('ls -d .*')).toContain('outside');
    expect(checkReadOnlyCommand('grep -rn x . --include=*.js', sandbox().scope)).toEqual({
      readOnly: true,
    });
    expect(checkReadOnlyCommand('cat a*', sandbox().scope)).toEqual({ readOnly: true });
    expect(reason('cat l*')).toContain('outside');
    expect(reason('wc -l ../*/*.txt')).toContain('outside');
  });

  it('does not call cd read-only where it leads out, or where bash picks the directory', () => {
    expect(reason('cd link_dir && cat canary.txt')).toContain('outside');
    expect(reason('cd .. && cat outside/canary.txt')).toContain('outside');
    expect(reason('cd && cat x')).toContain('$HOME');
    expect(reason('cd - && cat x')).toContain('plain cd');
    expect(reason('cd s* && cat x')).toContain('pattern');
    // After a cd, paths are checked from both places: the cd may have failed.
    expect(reason('cd sub && cat ../../outside/canary.txt')).toContain('outside');
  });

  describe('with CDPATH set', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('does not call cd to a bare name read-only: CDPATH may send it elsewhere', () => {
      vi.stubEnv('CDPATH', sandbox().root);
      expect(reason('cd outside && cat canary.txt')).toContain('CDPATH');
      expect(checkReadOnlyCommand('cd ./sub && ls', sandbox().scope)).toEqual({ readOnly: true });
    });
  });

  it('reads option values, clusters and @files as paths', () => {
    expect(reason('grep -f/etc/passwd a.js')).toContain('/etc/passwd');
    expect(reason('grep --file=../outside/canary.txt a.js')).toContain('outside');
    expect(reason('grep -f ../outside/canary.txt a.js')).toContain('outside');
    expect(reason('jq --rawfile s ../outside/canary.txt -n .')).toContain('outside');
    expect(reason('date -f link_file')).toContain('outside');
  });

  it('does not call options that read file names from a file read-only', async () => {
    await writeFile(path.join(sandbox().project, 'list'), '../outside/canary.txt\0');
    expect(reason('wc --files0-from=list')).toContain('--files0-from');
    expect(reason('sort --files0-from list')).toContain('--files0-from');
    expect(reason('du --files0-from=list')).toContain('--files0-from');
    expect(reason('find -files0-from list')).toContain('-files0-from');
    expect(reason('file -f list')).toContain('-f');
    expect(reason('strings @list')).toContain('@list');
    expect(reason('md5sum -c list')).toContain('-c');
  });

  it('does not call git read-only in a repository that reaches above the allowed directory', async () => {
    execFileSync('git', ['init', '-q', sandbox().root]);
    expect(reason('git status')).toContain('repository');
    expect(reason('git -C sub log')).toContain('repository');
  });

  it('calls git read-only in a repository inside the allowed directory', () => {
    execFileSync('git', ['init', '-q', sandbox().project]);
    expect(checkReadOnlyCommand('git status', sandbox().scope)).toEqual({ readOnly: true });
    expect(reason('git diff --no-index a.js link_file')).toContain('--no-index');
    expect(reason('git -C link_dir status')).toContain('outside');
  });

  it('calls git read-only in a linked worktree, whose git directory lies elsewhere', async () => {
    const { root } = sandbox();
    const repository = path.join(root, 'repository');
    const worktree = path.join(root, 'worktree');
    execFileSync('git', ['init', '-q', repository]);
    execFileSync('git', [
      ...['-C', repository, '-c', 'user.name=t', '-c', 'user.email=t@example.com'],
      ...['commit', '-q', '--allow-empty', '-m', 'first'],
    ]);
    execFileSync('git', ['-C', repository, 'worktree', 'add', '-q', worktree]);
    const scope = { cwd: worktree, allowedDirs: [worktree] };
    expect(checkReadOnlyCommand('git log', scope)).toEqual({ readOnly: true });
  });

  it('does not call git read-only where a .git file names another repository', async () => {
    const { root, project } = sandbox();
    execFileSync('git', ['init', '-q', path.join(root, 'elsewhere')]);
    await writeFile(
      path.join(project, '.git'),
      `gitdir: ${path.join(root, 'elsewhere', '.git')}\n`,
    );
    expect(reason('git log -p')).toContain('git directory');
  });

  it('follows a link to another allowed directory and checks the links there', async () => {
    const { project, root } = sandbox();
    const other = path.join(root, 'other');
    await mkdir(other);
    await symlink('../outside', path.join(other, 'escape'));
    const clean = path.join(project, 'clean');
    await mkdir(clean);
    await symlink(other, path.join(clean, 'to_other'));
    const scope = { cwd: clean, allowedDirs: [project, other] };
    expect(reasonFor('grep -R x to_other', scope)).toContain('escape');
  });
});

describe('environment readers', () => {
  const sandbox = useOutsideSandbox({ linksOut: false });
  const reason = (command: string) => reasonFor(command, sandbox().scope);

  it.each([
    'env',
    'printenv',
    'printenv OPENAI_API_KEY',
    'set',
    'export -p',
    'declare -p',
    'typeset -x',
    'compgen -v',
    'readonly -p',
    'ls | env',
  ])('never calls %s read-only', (command) => {
    expect(reason(command)).toContain('environment');
  });

  it.each([
    'jq -n env',
    "jq -n '$ENV.HOME'",
    "jq -n 'env.OPENAI_API_KEY'",
    'jq -n \'"\\(env)"\'',
    "jq -n '[env][0]'",
    'jq -n \'include "x"; .\'',
    'jq -n \'import "x" as $x; .\'',
  ])('never calls %s read-only', (command) => {
    expect(reason(command)).toContain('environment');
  });

  it('does not call jq -f read-only: the program it runs is not shown', () => {
    expect(reason('jq -f filter.jq data.json')).toContain('-f');
  });

  it.each([
    'cat /proc/self/environ',
    'cat /proc/1/environ',
    'cat /proc/self/cmdline',
    'head -c 100 /proc/self/environ',
    'cat /dev/stdin',
    'cat < /proc/self/environ',
    'grep -a KEY /proc/self/environ',
  ])('never calls %s read-only, whatever the allowed directories', (command) => {
    const everywhere = { cwd: sandbox().project, allowedDirs: ['/'] };
    expect(reasonFor(command, everywhere)).toContain('environment');
  });

  it.each([
    'echo $OPENAI_API_KEY',
    'echo "$HOME"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, not a template
    'echo ${PATH}',
    "echo $'\\x41'",
    'printf "%s" "$ANTHROPIC_API_KEY"',
    'cat $HOME/.ssh/id_rsa',
  ])('never calls %s read-only: variables show the environment', (command) => {
    expect(reason(command)).toContain('environment');
  });
});
