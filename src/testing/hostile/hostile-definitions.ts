// Definition files written to break a loader, for the tests that prove warren's does not break:
// each is what a stranger's repository could hold.

/**
 * A YAML alias fan-out: 3 anchors × 30 references, 270,000 values from 9 lines ("billion
 * laughs"). The first alias is on line 5.
 */
export function aliasFanOutDefinition(name = 'bomb'): string {
  const refs = (anchor: string) => Array(30).fill(`*${anchor}`).join(', ');
  return [
    '---',
    `name: ${name}`,
    'description: d',
    `a: &a [${Array(10).fill('x').join(', ')}]`,
    `b: &b [${refs('a')}]`,
    `c: &c [${refs('b')}]`,
    `d: [${refs('c')}]`,
    '---',
    'body',
    '',
  ].join('\n');
}

/** A frontmatter of `count` distinct keys (`k0: v` …), then `description: d` and a body. */
export function manyKeysDefinition(count: number, { duplicateLast = false } = {}): string {
  const keys = Array.from({ length: count }, (_, i) => `k${i}: v`);
  if (duplicateLast) keys.push('k0: again');
  return ['---', 'description: d', ...keys, '---', 'body', ''].join('\n');
}
