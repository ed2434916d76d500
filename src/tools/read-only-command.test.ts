import { describe, expect, it } from 'vitest';
import { checkReadOnlyCommand, isReadOnlyCommand } from './read-only-command.js';

describe('isReadOnlyCommand', () => {
  it.each([
    'ls -la',
    'pwd',
    'cat package.json',
    'head -n 20 src/index.ts',
    'tail -f log.txt',
    'wc -l src/*.ts',
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
    'git -C packages/app status',
    'git branch',
    'git branch -a',
    'git branch --list "feat/*"',
    'git tag -l "v1.*"',
    'git remote -v',
    'git config --get user.name',
    'git stash list',
    'ls && git status',
    'cat a.txt | sort | uniq -c | sort -rn | head',
    'ls 2>/dev/null || echo none',
    'grep foo file.txt 2>&1 | head',
    'cd src && ls',
    'cat < input.txt',
    'ls # a comment; rm -rf /',
    'sort -k 2 data.txt',
    'jq .version package.json',
  ])('accepts %s', (command) => {
    expect(checkReadOnlyCommand(command)).toEqual({ readOnly: true });
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
    ['cat a 2> errors.txt', 'redirects output'],
    ['echo $(rm -rf /)', 'command substitution'],
    ['echo "$(touch x)"', 'command substitution'],
    ['echo `touch x`', 'command substitution'],
    ['(rm x)', 'subshell'],
    ['diff <(ls a) <(ls b)', 'process substitution'],
    ['cat <<EOF\nhi\nEOF', 'here-document'],
    ['find . -name "*.tmp" -delete', '-delete'],
    ['find . -exec rm {} ;', '-exec'],
    ['find . $ACTION', 'expansion'],
    ['sort -o sorted.txt data.txt', '-o'],
    ['sort --out=sorted.txt data.txt', '--output'],
    ['rg --pre ./evil.sh foo', '--pre'],
    ['uniq in.txt out.txt', 'uniq'],
    ['git commit -m x', '`git commit`'],
    ['git push', '`git push`'],
    ['git -c core.pager=evil log', 'before the subcommand'],
    ['git branch new-feature', 'creates a branch'],
    ['git branch -v new-feature', 'creates a branch'],
    ['git branch -D old', 'not a listing option'],
    ['git tag v2.0', 'creates a tag'],
    ['git remote add origin url', 'not known to be read-only'],
    ['git remote -v add origin url', 'not known to be read-only'],
    ['git config user.name evil', 'not known to be read-only'],
    ['git diff --output=patch.diff', 'writes files'],
    ['git stash', 'not known to be read-only'],
    ['PAGER=evil git log', 'environment variables'],
    ['$EDITOR file.txt', 'program name depends on expansion'],
    ['./script.sh', 'not a command known to be read-only'],
    ['xargs rm < files.txt', '`xargs`'],
    ['ls | tee copy.txt', '`tee`'],
    ['sed -i s/a/b/ file', '`sed`'],
    ["echo 'unterminated", 'unterminated quote'],
    ['', 'empty'],
  ])('refuses %s, saying why', (command, reason) => {
    const verdict = checkReadOnlyCommand(command);
    expect(verdict.readOnly).toBe(false);
    if (verdict.readOnly) return;
    expect(verdict.reason).toContain(reason);
  });

  it('is the boolean form of checkReadOnlyCommand', () => {
    expect(isReadOnlyCommand('ls')).toBe(true);
    expect(isReadOnlyCommand('rm x')).toBe(false);
  });
});
