// Which occurrences of an event a hook group is for, as Claude Code reads `matcher`: empty or
// `*` is every one; names, digits, `_` and `|` alone are an exact list (`Write|Edit`); anything
// else is a JavaScript regular expression tested against the name (`mcp__fs__.*`).

export type Matcher = (subject: string | undefined) => boolean;

const EXACT_LIST = /^[A-Za-z0-9_|]+$/;

/** Claude Code renamed its Task tool to Agent; a hook written for one is meant for the other. */
const RENAMED: Readonly<Record<string, string>> = { Task: 'Agent' };

/** @throws SyntaxError for a pattern that is not a valid regular expression */
export function compileMatcher(matcher: string | undefined): Matcher {
  const pattern = matcher?.trim() ?? '';
  if (pattern === '' || pattern === '*') return () => true;
  if (EXACT_LIST.test(pattern)) {
    const names = new Set(pattern.split('|').map((name) => RENAMED[name] ?? name));
    return (subject) => subject !== undefined && names.has(subject);
  }
  const regex = new RegExp(pattern);
  return (subject) => subject !== undefined && regex.test(subject);
}
