// The command line as people type it: Claude Code's camelCase spellings of the flags warren
// shares with it (`--allowedTools`, `--maxTurns`) read as warren's own, `-v` beside a prompt read
// as --verbose, and the nearest flag or command offered when one is misspelt.

type OptionSpecs = Readonly<Record<string, { type: 'string' | 'boolean'; short?: string }>>;

/** The commands `warren <command>` takes, for "did you mean". */
export const COMMANDS = [
  'agents',
  'tasks',
  'worktrees',
  'usage',
  'report',
  'mcp',
  'restate',
  'trust',
] as const;

/**
 * `argv` with every camelCase flag that names one of `options` in kebab case rewritten, and `-v`
 * read as `--verbose` when a prompt is given (-p): Claude Code's `claude -p "…" -v` habit. Values
 * of string flags and everything after `--` are left as typed.
 */
export function canonicalFlags(argv: readonly string[], options: OptionSpecs): string[] {
  const printing = argv.includes('-p') || argv.includes('--print');
  const out: string[] = [];
  let valueNext = false;
  for (const [index, token] of argv.entries()) {
    if (token === '--') {
      out.push(...argv.slice(index));
      break;
    }
    if (valueNext) {
      valueNext = false;
      out.push(token);
      continue;
    }
    if (token === '-v' && printing) {
      out.push('--verbose');
      continue;
    }
    if (!token.startsWith('--')) {
      out.push(token);
      continue;
    }
    const equals = token.indexOf('=');
    const typed = token.slice(2, equals < 0 ? undefined : equals);
    const name = typed in options ? typed : kebab(typed);
    const rewritten = name in options ? `--${name}${equals < 0 ? '' : token.slice(equals)}` : token;
    out.push(rewritten);
    valueNext = options[name]?.type === 'string' && equals < 0;
  }
  return out;
}

/** Claude Code flags warren has no counterpart of by that name, and what does the job here. */
const ELSEWHERE: Readonly<Record<string, string>> = {
  'dangerously-skip-permissions': 'use --permission-mode bypassPermissions',
};

/** `did you mean --max-turns?`, or '' when nothing is close. */
export function didYouMeanFlag(typed: string, options: OptionSpecs): string {
  const bare = kebab(typed.replace(/^-+/, '').split('=')[0] ?? '');
  const elsewhere = ELSEWHERE[bare];
  if (elsewhere !== undefined) return elsewhere;
  const nearest = closest(bare, Object.keys(options));
  return nearest === undefined ? '' : `did you mean --${nearest}?`;
}

/** `did you mean agents?`, or '' when no command is close. */
export function didYouMeanCommand(typed: string): string {
  const nearest = closest(typed.toLowerCase(), COMMANDS);
  return nearest === undefined ? '' : `did you mean \`warren ${nearest}\`?`;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The candidate within a third of the typed word's length in edits (at least 1, at most 3). */
function closest(typed: string, candidates: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name);
    if (distance <= allowed && (best === undefined || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best?.name;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
