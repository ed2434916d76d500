import { describe, expect, it } from 'vitest';
import { hasGlob, parseCommandLine, type SimpleCommand } from './shell-words.js';

function commands(line: string): SimpleCommand[] {
  const parsed = parseCommandLine(line);
  if ('reason' in parsed) throw new Error(parsed.reason);
  return parsed.commands;
}

const texts = (line: string) => commands(line).map((command) => command.words.map((w) => w.text));

describe('parseCommandLine', () => {
  it('splits at ; & && | || |& and newlines, and removes quotes as bash does', () => {
    expect(texts(`a 'b c' "d\\"e" f\\ g; h && i | j || k |& l & m\nn`)).toEqual([
      ['a', 'b c', 'd"e', 'f g'],
      ['h'],
      ['i'],
      ['j'],
      ['k'],
      ['l'],
      ['m'],
      ['n'],
    ]);
  });

  it('keeps a backslash that escapes nothing inside double quotes', () => {
    expect(texts('grep "a\\.b"')).toEqual([['grep', 'a\\.b']]);
  });

  it('knows which characters were quoted, so a quoted * is no pattern', () => {
    const [first, second] = commands(`ls '*' *`)[0]?.words.slice(1) ?? [];
    expect(first && hasGlob(first)).toBe(false);
    expect(second && hasGlob(second)).toBe(true);
  });

  it('reads digits right before < or > as a descriptor, and quoted digits as a word', () => {
    expect(commands('cat 0<a.txt')[0]).toEqual({
      words: [{ text: 'cat', quoted: [false, false, false] }],
      redirections: [
        { kind: 'read', target: { text: 'a.txt', quoted: [false, false, false, false, false] } },
      ],
    });
    expect(texts("echo '2'>/dev/null")).toEqual([['echo', '2']]);
  });

  it('drops a line continuation between words instead of making an empty word', () => {
    expect(texts('cd \\\n&& ls')).toEqual([['cd'], ['ls']]);
  });

  it('starts a comment only at the start of a word', () => {
    expect(texts("ls a#b # c\necho ''#d")).toEqual([
      ['ls', 'a#b'],
      ['echo', '#d'],
    ]);
  });

  it('takes writes to /dev/null and descriptors as harmless', () => {
    const [command] = commands('ls >/dev/null 2>&1 &>/dev/null <&- >&2');
    expect(command?.redirections.every((r) => r.kind === 'harmless')).toBe(true);
  });

  it.each([
    ['echo $HOME', 'variable'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, not a template
    ['echo "${HOME}"', 'variable'],
    ["echo $'\\n'", 'variable'],
    ['echo $(id)', 'command substitution'],
    ['echo `id`', 'command substitution'],
    ['cat {a,b}', 'braces'],
    ['cat ~/x', 'tilde'],
    ['cat a=~/x', 'tilde'],
    ['(ls)', 'subshell'],
    ['cat <(ls)', 'process substitution'],
    ['cat <<EOF', 'here-document'],
    ['echo > x', 'redirects output to a file (> x)'],
    ['echo 2>&x', 'redirects output'],
    ['cat < *.txt', 'pattern'],
    ['cat <', 'without a target'],
    ['echo \\', 'lone backslash'],
    ["echo 'a", 'unterminated'],
    ['echo "a', 'unterminated'],
    ['echo a\rb', 'control characters'],
  ])('refuses %s', (line, reason) => {
    const parsed = parseCommandLine(line);
    expect('reason' in parsed && parsed.reason).toContain(reason);
  });

  it('keeps a $ that expands nothing', () => {
    expect(texts('grep a$ x "b$"')).toEqual([['grep', 'a$', 'x', 'b$']]);
  });
});
