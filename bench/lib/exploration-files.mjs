// The project the context scenario explores: twenty source files with distinct content, written
// to a fresh temp folder. Each opens with "BENCHFILE <what it is>", the line the mock summarises.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const TOPICS = [
  'invoice totals',
  'shopping cart',
  'shipping rates',
  'tax rules',
  'discount codes',
  'stock levels',
  'order history',
  'payment retries',
  'refund policy',
  'customer tiers',
  'gift cards',
  'price rounding',
  'currency conversion',
  'warehouse routing',
  'loyalty points',
  'subscription renewals',
  'fraud signals',
  'receipt printing',
  'supplier orders',
  'audit trail',
];

/** Writes `count` (at most 20) files under `<temp>/src/`; returns the folder and the absolute paths. */
export function writeExplorationFiles(count = TOPICS.length) {
  const dir = mkdtempSync(path.join(tmpdir(), 'warren-bench-explore-'));
  mkdirSync(path.join(dir, 'src'));
  const files = TOPICS.slice(0, count).map((topic, index) => {
    const name = `${topic.replace(/ /g, '-')}.ts`;
    const file = path.join(dir, 'src', name);
    writeFileSync(file, moduleSource(topic, index));
    return file;
  });
  return { dir, files };
}

/** About 3 KB of plausible TypeScript, different in every file. */
function moduleSource(topic, index) {
  const stem = topic.replace(/ (\w)/g, (_, c) => c.toUpperCase());
  const type = stem[0].toUpperCase() + stem.slice(1);
  const verbs = [
    'load',
    'validate',
    'compute',
    'merge',
    'format',
    'persist',
    'summarise',
    'compare',
  ];
  const functions = verbs.map(
    (
      verb,
      v,
    ) => `/** ${verb[0].toUpperCase() + verb.slice(1)}s ${topic} for one account (rule ${index}.${v}). */
export function ${verb}${type}(items: readonly ${type}Entry[], limit = ${(index + 1) * (v + 3)}): ${type}Entry[] {
  const kept = items.filter((item) => item.weight * ${v + 1} <= limit && item.code !== '${topic.slice(0, 3).toUpperCase()}-${v}');
  return kept.map((item) => ({ ...item, weight: item.weight + ${index * 7 + v}, note: '${verb} ${topic}' }));
}
`,
  );
  return `// BENCHFILE src/${topic.replace(/ /g, '-')}.ts: ${topic}, ${verbs.length} functions over ${type}Entry
export interface ${type}Entry {
  code: string;
  weight: number;
  note?: string;
}

${functions.join('\n')}`;
}
