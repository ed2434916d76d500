#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): the functions with the most
// self time, self time per source file, inclusive time of the project's own functions, and who
// calls the hottest function (or the function named as the third argument).
//
//   node bench/prof-top.mjs <file.cpuprofile> [rows=25] [function-name]
import { readFileSync } from 'node:fs';

const [file, rowsArg, callersOf] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/prof-top.mjs <file.cpuprofile> [rows] [function-name]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);

const selfUs = new Map();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

/**
 * `<package>/…` for dependencies, `dist/…` or `bench/…` for the project's own files, warren's
 * installed copy (the `cli` scenario's `CLI installed` runs) included.
 */
const shortUrl = (url) => {
  const file = url.replace(/^file:\/\//, '');
  if (file.includes('/node_modules/warren/dist/'))
    return file.replace(/^.*\/node_modules\/warren\/dist\//, 'dist/');
  if (file.includes('/node_modules/')) return file.replace(/^.*\/node_modules\//, '');
  return file.replace(/^.*\/(dist|bench)\//, '$1/');
};
const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
};
const sum = (map) => [...map.values()].reduce((a, b) => a + b, 0);
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const share = (us, total) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;

const byFunction = new Map();
const byFile = new Map();
for (const node of profile.nodes) {
  const self = selfUs.get(node.id) ?? 0;
  byFunction.set(label(node), (byFunction.get(label(node)) ?? 0) + self);
  const where = node.callFrame.url
    ? shortUrl(node.callFrame.url)
    : `(${node.callFrame.functionName || 'native'})`;
  byFile.set(where, (byFile.get(where) ?? 0) + self);
}
const total = sum(byFunction);
const idle = byFunction.get('(idle)') ?? 0;
console.log(
  `sampled ${(total / 1000).toFixed(0)} ms, of which idle ${(idle / 1000).toFixed(0)} ms\n`,
);
console.log('self time by function:');
const top = [...byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, rows);
for (const [name, us] of top) console.log(`${ms(us)} ms ${share(us, total - idle)}  ${name}`);

/** A package, a Node subsystem (`node:webstreams`), or a folder of the project's dist/. */
const groupOf = (where) => {
  if (where.startsWith('node:')) {
    const parts = where.replace(/^node:(internal\/)?(deps\/)?/, '').split('/');
    return `node:${parts[0]}`;
  }
  if (where.startsWith('dist/'))
    return `warren ${where.split('/').slice(0, -1).join('/') || 'dist'}`;
  if (where.startsWith('@')) return where.split('/').slice(0, 2).join('/');
  return where.split('/')[0];
};
const byGroup = new Map();
for (const [where, us] of byFile)
  byGroup.set(groupOf(where), (byGroup.get(groupOf(where)) ?? 0) + us);
console.log('\nself time by package or subsystem:');
for (const [name, us] of [...byGroup.entries()].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`${ms(us)} ms ${share(us, total - idle)}  ${name}`);
}

console.log('\nself time by file:');
for (const [name, us] of [...byFile.entries()].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`${ms(us)} ms ${share(us, total - idle)}  ${name}`);
}

// Inclusive time: a sample counts once for every distinct function on its stack.
const inclusive = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) seen.add(label(nodes.get(cur)));
  for (const name of seen)
    inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
console.log("\ninclusive time of the project's own functions (dist/):");
const own = [...inclusive.entries()].filter(([name]) => / dist\//.test(name));
for (const [name, us] of own.sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`${ms(us)} ms ${share(us, total - idle)}  ${name}`);
}

const hottest = callersOf
  ? [...byFunction.entries()]
      .filter(([name]) => name.startsWith(`${callersOf} `))
      .sort((a, b) => b[1] - a[1])[0]
  : top.find(([name]) => !name.startsWith('('));
if (hottest) {
  const chains = new Map();
  for (const node of profile.nodes) {
    if (label(node) !== hottest[0]) continue;
    const chain = [];
    for (
      let id = parentOf.get(node.id), depth = 0;
      id !== undefined && depth < 9;
      id = parentOf.get(id), depth++
    ) {
      chain.push(label(nodes.get(id)));
    }
    const key = chain.join('\n      < ');
    chains.set(key, (chains.get(key) ?? 0) + (selfUs.get(node.id) ?? 0));
  }
  console.log(`\ncallers of ${hottest[0]}:`);
  for (const [chain, us] of [...chains.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4)) {
    console.log(`${ms(us)} ms\n      < ${chain}`);
  }
}
