// Splits a definition file into its YAML frontmatter and Markdown body. Only the first two
// delimiter lines count: bodies hold `---` rules and fenced YAML examples of their own.

export interface FrontmatterParts {
  /** The text between the delimiters. */
  frontmatter: string;
  /** File line (1-based) of the frontmatter's first line, for diagnostics. */
  frontmatterLine: number;
  /** Everything after the closing delimiter, without leading blank lines and trailing space. */
  body: string;
  /** What had to be fixed to find the frontmatter, for a warning. */
  fixed?: string;
  /** A closing line that is not exactly `---` (`------`), for a warning at its own line. */
  oddCloser?: { line: number; text: string };
}

export interface FrontmatterProblem {
  problem: string;
  fix: string;
  line: number;
}

export type FrontmatterSplit =
  | { ok: true; parts: FrontmatterParts }
  | { ok: false; problem: FrontmatterProblem };

const OPENER = '---';
const CLOSERS = new Set(['---', '...']);
/** A rule of more dashes closes the frontmatter too: authors draw it by hand. */
const LONG_CLOSER = /^-{4,}$/;

/** CRLF (Windows) and a lone CR (classic Mac) end lines as LF does. */
const LINE_END = /\r\n|\r|\n/;

export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.replace(/^\uFEFF/, '').split(LINE_END);
  const openerIndex = lines.findIndex((line) => line.trim() !== '');
  const opener = lines[openerIndex];
  if (opener === undefined || opener.trim() !== OPENER) {
    return {
      ok: false,
      problem: {
        problem: 'no frontmatter: the file does not start with a `---` line',
        fix: 'start the file with a `---` block holding at least `description:`, then the prompt',
        line: Math.max(openerIndex, 0) + 1,
      },
    };
  }

  // One real file has its whole content indented (a Markdown code block): dedent by the
  // opener's indentation rather than refuse it.
  const indent = opener.length - opener.trimStart().length;
  const dedented = indent === 0 ? lines : lines.map((line) => stripIndent(line, indent));
  const closerIndex = dedented.findIndex((line, i) => i > openerIndex && isCloser(line.trimEnd()));
  if (closerIndex === -1) {
    return {
      ok: false,
      problem: {
        problem: 'the frontmatter opened here is never closed',
        fix: 'add a `---` line after the last frontmatter field',
        line: openerIndex + 1,
      },
    };
  }

  const prompt = promptInside(dedented, openerIndex, closerIndex);
  if (prompt !== undefined) {
    return {
      ok: false,
      problem: {
        problem: `the frontmatter opened here has no closing \`---\` before the prompt (line ${prompt + 1} reads as Markdown, not YAML; the \`---\` at line ${closerIndex + 1} is a rule in the prompt)`,
        fix: `add a \`---\` line after the last frontmatter field, before line ${prompt + 1}`,
        line: openerIndex + 1,
      },
    };
  }

  const fixes = [
    openerIndex > 0 ? `skipped ${openerIndex} blank line(s) before the opening \`---\`` : '',
    indent > 0 ? `removed ${indent} spaces of indentation from every line` : '',
  ].filter((fix) => fix !== '');
  const closer = dedented[closerIndex]!.trimEnd();
  return {
    ok: true,
    parts: {
      frontmatter: dedented.slice(openerIndex + 1, closerIndex).join('\n'),
      frontmatterLine: openerIndex + 2,
      body: dedented
        .slice(closerIndex + 1)
        .join('\n')
        .replace(/^(?:[ \t]*\n)+/, '')
        .trimEnd(),
      ...(fixes.length > 0 ? { fixed: fixes.join(' and ') } : {}),
      ...(!CLOSERS.has(closer) && { oddCloser: { line: closerIndex + 1, text: closer } }),
    },
  };
}

/**
 * The line where a prompt starts inside what was taken for frontmatter: after a blank line, a
 * Markdown heading (`## Rules`), with a line of prose before or after it that no YAML key starts.
 * YAML would read the heading as a comment and the prose as part of a value, so without this
 * the prompt's first part would quietly become the description.
 */
function promptInside(
  lines: readonly string[],
  opener: number,
  closer: number,
): number | undefined {
  const isProse = (line: string) =>
    line.trim() !== '' &&
    !/^\s/.test(line) &&
    !/^[\w"'-][^:]*:(\s|$)/.test(line) &&
    !/^#/.test(line);
  for (let i = opener + 2; i < closer; i++) {
    if (lines[i - 1]?.trim() !== '' || !/^#{1,6}\s+\S/.test(lines[i] ?? '')) continue;
    const region = lines.slice(opener + 1, closer);
    const firstProse = region.findIndex(isProse);
    if (firstProse !== -1) {
      const at = opener + 1 + firstProse;
      return Math.min(at, i);
    }
  }
  return undefined;
}

function isCloser(line: string): boolean {
  return CLOSERS.has(line) || LONG_CLOSER.test(line);
}

function stripIndent(line: string, indent: number): string {
  const leading = line.length - line.trimStart().length;
  return line.slice(Math.min(leading, indent));
}
