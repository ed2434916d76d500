// Generated bash command lines that try to read outside the sandbox of the read-only property
// test: attack shapes with holes for path tricks, plus free compositions of programs, arguments,
// quoting, redirections and separators. The names are those of that sandbox.
import fc from 'fast-check';

/** Plain files of the project. */
const PLAIN_FILES = ['a.js', 'notes.txt', 'sub/b.txt', 'list.txt'];

/** Ways to the canary that bash passes on as they are written: links, `..`, patterns, devices. */
const FILES_LEADING_OUT = [
  ...['link_file', 'abs_link', 'sub/deep_link', 'dangling', 'link_dir/canary.txt', 'link_*'],
  ...['../outside/canary.txt', 'link_dir/../outside/canary.txt', 'sub/../link_file', '*/*'],
  ...['l?nk_file', '[l]ink_file', '*/deep_link', '.*/outside/canary.txt', '../outside/*', '*'],
  ...['link_dir/*', '*/canary.txt', '/proc/self/environ', '/dev/stdin', '/dev/fd/0', 'sub/*'],
];

/** Ways to the canary through bash's own expansions: tildes, variables, braces. */
const FILES_BY_EXPANSION = [
  ...['~/canary.txt', '~+/../outside/canary.txt', '~-/canary.txt', '$HOME/canary.txt'],
  ...['"$OLDPWD/canary.txt"', '{link_file,a.js}', 'x=~/canary.txt', "$'link_file'"],
];

const PLAIN_DIRS = ['.', 'sub', 'other', './sub', './other'];
const DIRS_LEADING_OUT = ['link_dir', '..', '../outside', '*', 's*', 'link_*', '.*', 'link_dir/..'];
const DIRS_BY_EXPANSION = ['~', '~-', '$HOME', '{link_dir,sub}', '$OLDPWD'];

/** Files that name other files, one a line or NUL-separated. */
const LISTS = ['list.txt', 'list0', 'link_file', '../outside/canary.txt', 'a.js'];

/** jq programs, most of them ways to the environment. */
const JQ_PROGRAMS = [
  ...['.', '.env', 'env', '$ENV', '"\\(env)"', '[env]', 'env|keys', '$ENV.WARREN_CANARY'],
  ...['input_filename', '$__loc__', 'getpath(["a"])', '.[]?'],
];

/**
 * Shapes of attack, in families picked alike; `{file}`, `{dir}`, `{list}` and `{jq}` are filled
 * from the lists above.
 */
const TEMPLATE_FAMILIES = [
  // Readers of the files they are given.
  [
    ...['cat {file}', 'head -n 3 {file}', 'tail -n 2 {file}', 'nl {file}', 'tac {file}'],
    ...['rev {file}', 'cut -c1-80 {file}', 'sort {file}', 'uniq {file}', 'strings {file}'],
    ...['column {file}', 'file {file}', 'cmp {file} a.js', 'diff {file} a.js', 'comm {file} a.js'],
    ...['sort -m {file} a.js', 'cat a.js {file}', 'grep -h CANARY {file}', 'date -f {file}'],
  ],
  // Input redirection.
  ['cat < {file}', 'head 0<{file}', 'grep CANARY < {file}', 'cat - < {file}', 'sort 0< {file}'],
  // Recursive readers, following links or not.
  [
    ...['grep -r CANARY {dir}', 'grep -R CANARY {dir}', 'grep -rS CANARY {dir}', 'rg CANARY {dir}'],
    ...['grep -d recurse CANARY {dir}', 'grep --dereference-recursive CANARY {dir}'],
    ...['egrep -R CANARY {dir}', 'rg -L CANARY {dir}', 'rg --follow CANARY {dir}', 'find {dir}'],
    ...['find -L {dir} -type f', 'find {dir} -follow', 'find {dir} -exec cat "{}" ";"'],
    ...['diff -rN {dir} other', 'diff -N {dir} other', 'diff -r other {dir}', 'grep -R CANARY'],
  ],
  // Listing: names outside must not show either.
  [
    ...['ls {dir}', 'ls -R {dir}', 'ls -L {dir}', 'ls -RL {dir}', 'du -a {dir}', 'du -aL {dir}'],
    ...['tree {dir}', 'tree -l {dir}', 'echo {dir}/*', 'wc -l {dir}/*', 'head {dir}/*'],
    ...['cat {dir}/*', 'stat {dir}/*', 'file {dir}/*', 'ls -d {dir}/*', 'find {dir} -name "n*"'],
  ],
  // cd, and paths read from wherever it leads.
  [
    ...['cd {dir} && cat canary.txt', 'cd {dir} && ls', 'cd {dir} && grep -R CANARY .'],
    ...['cd {dir}; cat ../outside/canary.txt', 'cd {dir} && cat ../../outside/canary.txt'],
    ...['cd {dir} && cat ../link_file', 'cd {dir} && cat ../sub/deep_link', 'cd {dir} && ls ..'],
  ],
  // Options that name files, in every spelling.
  [
    ...['date -f{file}', 'date --file={file}', 'date --f {file}', 'grep -f {file} -r .'],
    ...['grep --file={file} a.js', 'grep -f{file} -e x a.js', 'jq --rawfile x {file} -n .'],
    ...[
      'jq -n --rawfile x {file} "\\$x"',
      'jq -R . {file}',
      'jq -Rn input {file}',
      'cmp -- {file} a.js',
    ],
  ],
  // Lists of files to read.
  [
    ...['wc --files0-from={list}', 'sort --files0-from={list}', 'du --files0-from={list}'],
    ...['find -files0-from {list}', 'file -f {list}', 'strings @{list}', 'md5sum -c {list}'],
    ...['sort --files0={list}', 'wc *', 'rg * CANARY', 'find *', 'sort *'],
  ],
  // git.
  [
    ...['git -C {dir} log --stat', 'git -C {dir} show HEAD:a.js', 'git -C {dir} grep CANARY'],
    ...['git -C {dir} status', 'git config -l', 'git config --get user.name', 'git log -p'],
    ...['git log --format=%an', 'git diff --no-index {file} a.js', 'git grep --no-index CANARY'],
    ...['git show HEAD:a.js', 'git log -- {file}', 'git blame -- {file}', 'git -C {dir} ls-files'],
  ],
  // The environment.
  [
    ...['env', 'printenv', 'set', 'export -p', 'declare -p', 'compgen -v', 'echo $WARREN_CANARY'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, not a template
    ...['echo "${WARREN_CANARY}"', 'printf %s "$WARREN_CANARY"', 'cat /proc/self/environ'],
    ...['grep -a CANARY /proc/self/environ', 'cat /dev/stdin < {file}', 'jq -n {jq}'],
    ...['jq {jq} {file}', 'jq -n {jq} a.js', 'cat /proc/$$/environ', 'cat /proc/self/cmdline'],
  ],
];

/** The same text written another way bash reads identically. */
const quoting = fc.constantFrom<(text: string) => string>(
  (text) => text,
  (text) => text,
  (text) => `'${text.replaceAll("'", `'\\''`)}'`,
  (text) => `"${text.replaceAll(/["\\`$]/g, '\\$&')}"`,
  (text) => text.replaceAll(/[\w./-]/g, (char) => `\\${char}`),
  (text) => (text.length > 1 ? `${text.slice(0, 1)}''${text.slice(1)}` : text),
  (text) => (text.length > 2 ? `"${text.slice(0, 2)}"${text.slice(2)}` : text),
);

const hole = (choices: fc.Arbitrary<string>) =>
  fc.tuple(choices, quoting).map(([text, quote]) => quote(text));

/** Plain names sometimes, so that commands are read-only and run; mostly ways out. */
const weighted = (plain: string[], leadingOut: string[], byExpansion: string[]) =>
  hole(
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...plain) },
      { weight: 3, arbitrary: fc.constantFrom(...leadingOut) },
      { weight: 1, arbitrary: fc.constantFrom(...byExpansion) },
    ),
  );

const attack = fc
  .record({
    template: fc.constantFrom(...TEMPLATE_FAMILIES).chain((family) => fc.constantFrom(...family)),
    file: weighted(PLAIN_FILES, FILES_LEADING_OUT, FILES_BY_EXPANSION),
    dir: weighted(PLAIN_DIRS, DIRS_LEADING_OUT, DIRS_BY_EXPANSION),
    list: hole(fc.constantFrom(...LISTS)),
    jq: hole(fc.constantFrom(...JQ_PROGRAMS)),
  })
  .map(({ template, ...holes }) =>
    template.replaceAll(/\{(file|dir|list|jq)\}/g, (_, name: keyof typeof holes) => holes[name]),
  );

const PROGRAMS = [
  ...'cat head tail grep egrep rg find ls du tree wc sort uniq cut nl tac rev strings file'.split(
    ' ',
  ),
  ...'stat readlink realpath md5sum cksum diff cmp comm column jq date echo printf test git'.split(
    ' ',
  ),
];

/** Arguments: options that matter to some program, and every file and directory above. */
const ARGUMENTS = [
  ...PLAIN_FILES,
  ...FILES_LEADING_OUT,
  ...FILES_BY_EXPANSION,
  ...PLAIN_DIRS,
  ...DIRS_LEADING_OUT,
  ...LISTS,
  ...['CANARY', 'x', '-', '-n', '-r', '-R', '-L', '-S', '-l', '-a', '-s', '-c', '-e', '-f', '-i'],
  ...['--', '-follow', '--follow', '-exec', 'env', '$ENV', '--no-index', '-C', 'config', 'HEAD'],
  ...['log', 'show', '--list', '--rawfile', '-d', 'recurse', '@list.txt', '--files0-from=list0'],
  ...['--pathspec-from-file=list.txt', '-f../outside/canary.txt', '-Llink_dir', '"{}"', ';'],
];

const freeCommand = fc
  .tuple(
    fc.constantFrom(...PROGRAMS),
    fc.array(hole(fc.constantFrom(...ARGUMENTS)), { maxLength: 4 }),
    fc.constantFrom('', '', '', '', ' 2>/dev/null', ' 2>&1', ' < a.js', ' < link_file', ' 3<a.js'),
  )
  .map(([program, args, redirect]) => `${[program, ...args].join(' ')}${redirect}`);

const simpleCommand = fc.oneof(
  { weight: 3, arbitrary: attack },
  { weight: 2, arbitrary: freeCommand },
);

/** One or two commands joined by `|`, `&&`, `;`, `||`, a newline or `&`. */
export const commandLine = fc
  .tuple(
    simpleCommand,
    fc.array(fc.tuple(fc.constantFrom(' | ', ' && ', '; ', ' || ', '\n', ' & '), simpleCommand), {
      maxLength: 1,
    }),
  )
  .map(([first, rest]) => first + rest.map(([separator, command]) => separator + command).join(''));
