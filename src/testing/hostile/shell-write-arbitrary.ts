// Generated bash command lines that try to write outside a command's writable folder, or into
// what it must keep read-only inside it: writers, targets reached through links, `..`, globs,
// braces, `$PWD`, `$(…)` and /proc/self/cwd, and wrappers that start the command another way.
// The names are those of the sandbox-writes property test: `project/` beside `outside/`.
import fc from 'fast-check';

/** Ways from `project/` to what must not change. */
const TARGETS = [
  ...['../outside/canary.txt', '../outside/new.txt', 'link_file', 'link_dir/canary.txt'],
  ...['link_dir/new.txt', '"$PWD/../outside/canary.txt"', '"$(dirname "$PWD")/outside/new.txt"'],
  ...['/proc/self/cwd/../outside/canary.txt', '../o*/canary.txt', '../outside/{canary,new}.txt'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${…}, not a template.
  ...['../{outside,project}/canary.txt', '"${PWD%/*}/outside/canary.txt"', '../outside'],
  ...['.git/config', '.git/hooks/pre-commit', '.git/info/exclude', '.warren/settings.json'],
  ...['./.warren/../.git/config', '.gi?/config', '.w*/settings.json', '.git/hooks'],
  ...['/proc/self/cwd/.git/config', '"$(pwd)/.git/hooks/post-checkout"', '.mcp.json'],
  ...['.claude/settings.json', '"$(cd .. && pwd)/outside/x"', '~-/../outside/new.txt'],
];

/** Commands that write, create, remove or replace `{t}`. */
const WRITERS = [
  ...['echo pwned > {t}', 'echo pwned >> {t}', 'printf pwned | tee {t}', 'cp a.js {t}'],
  ...['mv notes.txt {t}', 'touch {t}', 'rm -rf {t}', 'ln -sf /etc/passwd {t}', 'sed -i s/o/0/ {t}'],
  ...['truncate -s 0 {t}', 'chmod 000 {t}', 'mkdir -p {t}/d', 'dd if=a.js of={t} status=none'],
  ...['git config -f {t} core.fsmonitor "touch pwned"', 'install -m 644 a.js {t}'],
  ...['exec 3<>{t}; echo pwned >&3', 'cat a.js 1<>{t}', 'git config core.hooksPath /tmp'],
  ...['find .. -name canary.txt -delete', 'git update-ref refs/heads/main HEAD'],
];

/** Other ways to start the same command line. */
const WRAPPERS = [
  '{c}',
  "bash -c '{c}'",
  'sh -c "{c}"',
  'cd .. && cd project && {c}',
  '( {c} )',
  '{c} &\nwait',
  "setsid bash -c '{c}'",
  "nohup bash -c '{c}' > /dev/null 2>&1",
  "env -i PATH=/usr/bin:/bin bash -c '{c}'",
  'cd ../outside 2>/dev/null; {c}',
  "timeout 5 bash -c '{c}'",
  'f() { {c}; }; f',
];

export const writeAttack = fc
  .tuple(fc.constantFrom(...WRAPPERS), fc.constantFrom(...WRITERS), fc.constantFrom(...TARGETS))
  .map(([wrapper, writer, target]) =>
    wrapper.replace('{c}', () => writer.replaceAll('{t}', () => target)),
  );

/** One attack, or two joined the ways bash joins commands. */
export const writeAttackLine = fc
  .tuple(
    writeAttack,
    fc.option(fc.tuple(fc.constantFrom('; ', ' && ', ' || ', ' | '), writeAttack)),
  )
  .map(([first, rest]) => (rest === null ? first : first + rest[0] + rest[1]));
