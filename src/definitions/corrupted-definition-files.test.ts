// Definition files are input from strangers. Whatever is done to a real file (bytes inserted or
// cut, lines repeated, line endings changed, hostile YAML spliced in), loading it gives an entry:
// usable, or an error that names a line. It never throws, and never needs the last-resort net.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aliasFanOutDefinition } from '../testing/hostile/hostile-definitions.js';
import { parseAgentFile } from './load-agent-file.js';
import { MAX_TEXT_BYTES } from './text-limits.js';

const fixtures = fileURLToPath(new URL('./fixtures/corpus/', import.meta.url));
const realFiles = readdirSync(fixtures, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.md') && path.basename(file) !== 'SOURCES.md')
  .map((file) => readFileSync(path.join(fixtures, file), 'utf8'));

/** YAML and text that have broken loaders: spliced in whole, at a line start. */
const HOSTILE_LINES = [
  aliasFanOutDefinition(),
  'tools: &t [Read, *t]',
  'name: &n\n  - *n',
  `deep: ${'['.repeat(3000)}${']'.repeat(3000)}`,
  '__proto__: { tools: [] }',
  'constructor: 1',
  'hasOwnProperty: x',
  'name: ../../etc/passwd',
  'name: "a\\0b"',
  'name: "\u202Eevil"',
  'name: 42',
  'description: !!binary aGVsbG8=',
  'description: !!js/function "() => 1"',
  'tools: !!set { Read, Bash }',
  'timeBudgetMs: !!timestamp 2001-12-14',
  '? [complex, key]\n: value',
  '%YAML 1.2',
  '--- !tag',
  '...',
  '----------',
  '\t\ttabs: here',
  '\uFEFF---',
  `description: ${'x'.repeat(70_000)}`,
  'permission:\n  bash:\n    "*": nope\n    "git *": [1, 2]\n  task: { "*": deny }',
  'permission: 7',
  'tools:\n  read: maybe',
  'mcpServers: { a: { command: [] } }',
  'user: "an example line"\nassistant: "another"',
  'description: |\n  first\n  second\nContext: more',
];

const mutation = fc.oneof(
  fc.record({ insert: fc.string({ unit: 'binary', maxLength: 40 }), at: fc.nat() }),
  fc.record({ cut: fc.nat({ max: 200 }), at: fc.nat() }),
  fc.record({ repeatLine: fc.nat() }),
  fc.record({ lineEnding: fc.constantFrom('\r', '\r\n', '\n\n', '') }),
  fc.record({ splice: fc.constantFrom(...HOSTILE_LINES), atLine: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(text: string, change: Mutation): string {
  if ('insert' in change) {
    const at = change.at % (text.length + 1);
    return text.slice(0, at) + change.insert + text.slice(at);
  }
  if ('cut' in change) {
    const at = change.at % (text.length + 1);
    return text.slice(0, at) + text.slice(at + change.cut);
  }
  const lines = text.split('\n');
  if ('repeatLine' in change) {
    const index = change.repeatLine % lines.length;
    lines.splice(index, 0, lines[index]!);
    return lines.join('\n');
  }
  if ('lineEnding' in change) return lines.join(change.lineEnding);
  lines.splice(1 + (change.atLine % lines.length), 0, change.splice);
  return lines.join('\n');
}

const corruptedFile = fc
  .tuple(fc.constantFrom(...realFiles), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([text, changes]) => changes.reduce(mutate, text));

describe('parseAgentFile on 1,000 corrupted real files (property)', () => {
  it('has real files to corrupt', () => {
    expect(realFiles.length).toBeGreaterThan(15);
  });

  it('always returns an entry: a valid definition, or an error with a message', () => {
    fc.assert(
      fc.property(corruptedFile, (text) => {
        const entry = parseAgentFile({ path: '/agents/corrupted.md', kind: 'project', text });
        expect(['ok', 'error']).toContain(entry.status);
        if (entry.status === 'error') {
          expect(entry.error?.message).not.toBe('');
          expect(entry.error?.message).not.toContain('as a warren bug');
          return;
        }
        const { definition } = entry;
        expect(definition?.name).toMatch(/^[a-z0-9][a-z0-9._-]{0,63}$/);
        expect(Buffer.byteLength(definition!.description)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
        expect(Buffer.byteLength(definition!.prompt)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
        for (const diagnostic of [...entry.warnings, ...entry.notes]) {
          expect(diagnostic.line === undefined || Number.isInteger(diagnostic.line)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
