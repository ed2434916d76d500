import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './frontmatter.js';

function parts(text: string) {
  const split = splitFrontmatter(text);
  if (!split.ok) throw new Error(`expected frontmatter, got: ${split.problem.problem}`);
  return split.parts;
}

describe('splitFrontmatter', () => {
  it('uses only the first two `---` lines, so a body with rules and YAML examples stays whole', () => {
    const body = ['# Agent', '', '---', 'title: Code Diagram', '---', '', 'More text.'].join('\n');
    const result = parts(`---\nname: c4\ndescription: d\n---\n${body}\n`);
    expect(result.frontmatter).toBe('name: c4\ndescription: d');
    expect(result.body).toBe(body);
  });

  it('says the closer is missing when the prompt ran into the frontmatter up to a rule in it', () => {
    const text = [
      '---',
      'name: reviewer',
      'description: reviews code',
      '',
      'You are a reviewer.',
      '',
      '## Rules',
      '- be kind',
      '',
      '---',
      'More text.',
    ].join('\n');
    const split = splitFrontmatter(text);
    expect(split).toMatchObject({
      ok: false,
      problem: {
        line: 1,
        problem:
          'the frontmatter opened here has no closing `---` before the prompt (line 5 reads as Markdown, not YAML; the `---` at line 10 is a rule in the prompt)',
        fix: 'add a `---` line after the last frontmatter field, before line 5',
      },
    });
  });

  it('keeps a frontmatter with a comment and a block value as it is', () => {
    const text = '---\nname: a\n# a comment\ndescription: |\n  one\n\n  two\n---\nbody';
    expect(parts(text).body).toBe('body');
  });

  it('reports where the frontmatter starts so field lines match the file', () => {
    expect(parts('---\nname: a\n---\nbody').frontmatterLine).toBe(2);
  });

  it('accepts a byte-order mark and Windows line endings', () => {
    const result = parts('\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\n');
    expect(result.frontmatter).toBe('name: a\ndescription: d');
    expect(result.body).toBe('body');
    expect(result.fixed).toBeUndefined();
  });

  it('reads a lone CR (classic Mac) as a line ending', () => {
    const result = parts('---\rname: a\rdescription: d\r---\rbody\rmore');
    expect(result.frontmatter).toBe('name: a\ndescription: d');
    expect(result.body).toBe('body\nmore');
  });

  it('accepts a closing rule of more dashes, and reports it at its own line', () => {
    const result = parts('---\nname: a\n-------\nbody');
    expect(result.frontmatter).toBe('name: a');
    expect(result.oddCloser).toEqual({ line: 3, text: '-------' });
    expect(parts('---\nname: a\n---\nbody').oddCloser).toBeUndefined();
  });

  it('accepts `...` as the closing line', () => {
    expect(parts('---\nname: a\n...\nbody').body).toBe('body');
  });

  it('dedents a file indented as a Markdown code block and says it did', () => {
    const result = parts(
      '\n    ---\n    name: sqs-expert\n    ---\n    \n    You are an expert.\n',
    );
    expect(result.frontmatter).toBe('name: sqs-expert');
    expect(result.body).toBe('You are an expert.');
    expect(result.frontmatterLine).toBe(3);
    expect(result.fixed).toContain('removed 4 spaces of indentation');
    expect(result.fixed).toContain('skipped 1 blank line');
  });

  it('refuses a file without frontmatter, naming the line and the fix', () => {
    const split = splitFrontmatter('# Just a README\n\nSome text.\n');
    expect(split).toEqual({
      ok: false,
      problem: expect.objectContaining({ line: 1, fix: expect.stringContaining('`---`') }),
    });
  });

  it('refuses frontmatter that is never closed', () => {
    const split = splitFrontmatter('---\nname: a\ndescription: b\n');
    expect(split.ok).toBe(false);
    if (!split.ok) expect(split.problem.problem).toContain('never closed');
  });

  it('refuses an empty file', () => {
    expect(splitFrontmatter('').ok).toBe(false);
  });
});
