// The dependency rule of docs/architecture.md, checked over the real import graph: each folder
// imports only the folders below it, and no module reaches itself through its imports.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** Every folder the entry points (and the CLI) may build on. */
const LAYERS_BELOW_ENTRY = [
  'core',
  'model',
  'tools',
  'permissions',
  'session',
  'telemetry',
  'hooks',
  'isolation',
  'mcp',
  'acp',
  'loop',
  'definitions',
  'prompt',
  'agents',
  'tasks',
  'remote',
  'a2a',
  'sandbox',
  'serve',
  'workflows',
  'run',
  'testing',
];

/**
 * The files at the top of src/: the public entries (package.json "exports": index.ts is
 * `warren`, tools.ts is `warren/tools`, …) and query(), which only index.ts re-exports; it plans
 * its run with run/. Together they sit above every folder but the CLI.
 */
const ENTRY_FILES = [
  'agents.ts',
  'engine.ts',
  'hooks.ts',
  'index.ts',
  'mcp.ts',
  'permissions.ts',
  'session.ts',
  'tasks.ts',
  'telemetry.ts',
  'testing.ts',
  'tools.ts',
];
const ASSEMBLY_FILES = ['query.ts'];

/**
 * What each folder of src/ may import besides itself. Folders not built yet are listed so the
 * rule holds from their first file.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  model: ['core'],
  tools: ['core'],
  permissions: ['core', 'tools'],
  session: ['core'],
  sandbox: ['core', 'model'],
  telemetry: ['core', 'model'],
  hooks: ['core'],
  isolation: ['core', 'tools'],
  mcp: ['core', 'permissions'],
  acp: ['core', 'model', 'tools', 'permissions', 'session', 'mcp', 'loop'],
  loop: ['core', 'model', 'tools', 'permissions'],
  definitions: ['core', 'model', 'tools', 'permissions', 'hooks'],
  prompt: ['core', 'tools', 'definitions'],
  agents: [
    'core',
    'loop',
    'model',
    'tools',
    'permissions',
    'hooks',
    'isolation',
    'mcp',
    'acp',
    'definitions',
    'prompt',
  ],
  tasks: ['core', 'loop', 'model', 'tools', 'permissions', 'session'],
  remote: [
    'core',
    'loop',
    'model',
    'tools',
    'permissions',
    'session',
    'definitions',
    'prompt',
    'agents',
    'tasks',
    'sandbox',
  ],
  a2a: ['core', 'definitions', 'agents'],
  serve: ['core', 'permissions', 'definitions', 'agents', 'session', 'a2a'],
  workflows: ['core', 'loop', 'model', 'tools', 'permissions', 'session', 'agents', 'tasks'],
  testing: ['core', 'model', 'tools', 'sandbox'],
  // The composition root: a run planned once, over every engine folder; nothing below plans.
  run: LAYERS_BELOW_ENTRY.filter((folder) => !['run', 'serve', 'testing'].includes(folder)),
  '(entry)': LAYERS_BELOW_ENTRY,
  cli: [...LAYERS_BELOW_ENTRY, '(entry)'],
};

interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: erased from the built code, so it cannot loop at run time. */
  typeOnly?: boolean;
  /** `import('…')`: loaded on first use, yet a dependency all the same. */
  dynamic?: boolean;
}

/** Every relative import and re-export of the non-test sources under src/. */
function importGraph(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'fixtures') walk(file);
        continue;
      }
      if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      const text = readFileSync(file, 'utf8');
      const statements =
        /^(?:import|export)(\s+type)?\b(?:[^;'"]*?\bfrom)?\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
      const from = path.relative(SRC, file);
      for (const match of text.matchAll(statements)) {
        const target = sourceOf(path.resolve(dir, match[2]!));
        edges.push({ from, to: path.relative(SRC, target), typeOnly: match[1] !== undefined });
      }
      for (const match of text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
        const target = sourceOf(path.resolve(dir, match[1]!));
        edges.push({ from, to: path.relative(SRC, target), dynamic: true });
      }
    }
  };
  walk(SRC);
  return edges;
}

/** The source file an import of `x.js` names: `x.ts`, or `x.tsx` for a module with JSX. */
function sourceOf(built: string): string {
  const source = built.replace(/\.js$/, '.ts');
  return existsSync(source) || !existsSync(`${source}x`) ? source : `${source}x`;
}

/** Every non-test source file under src/, relative to it (fixtures and test helpers left out). */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => !file.split(path.sep).includes('fixtures'));
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function folderOf(file: string): string {
  const [first, ...rest] = file.split(path.sep);
  return rest.length === 0 ? '(entry)' : first!;
}

/** Groups of modules that import each other in a circle (Tarjan's strongly connected components). */
function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the layers of src/', () => {
  const edges = importGraph();

  it('reads a real import graph', () => {
    expect(edges.some((edge) => edge.from === path.join('loop', 'agent-loop.ts'))).toBe(true);
  });

  it('has every folder in the dependency rule', () => {
    const unknown = new Set(edges.map((edge) => folderOf(edge.from)).filter((f) => !MAY_IMPORT[f]));
    expect([...unknown]).toEqual([]);
  });

  it('has at its top only the public entries and the assembly of query()', () => {
    const top = readdirSync(SRC).filter((name) => /^[^.]+\.tsx?$/.test(name));
    expect(top.sort()).toEqual([...ENTRY_FILES, ...ASSEMBLY_FILES].sort());
    const exported = Object.values(
      JSON.parse(readFileSync(path.join(SRC, '..', 'package.json'), 'utf8')).exports as Record<
        string,
        { default: string }
      >,
    ).map((target) => path.basename(target.default).replace(/\.js$/, '.ts'));
    expect(exported.sort()).toEqual(ENTRY_FILES);
  });

  it('builds no entry on another: each re-exports from the folders below it', () => {
    const between = edges
      .filter(({ from, to }) => ENTRY_FILES.includes(from) && folderOf(to) === '(entry)')
      .filter(({ from, to }) => !(from === 'index.ts' && to === 'query.ts'))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(between).toEqual([]);
  });

  it('imports only downward: no folder imports one above it', () => {
    const upward = edges
      .filter(({ from, to }) => {
        const source = folderOf(from);
        const target = folderOf(to);
        return source !== target && !MAY_IMPORT[source]?.includes(target);
      })
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  it('has no import circle between folders, type-only imports included', () => {
    const folders = edges
      .map(({ from, to }) => ({ from: folderOf(from), to: folderOf(to) }))
      .filter(({ from, to }) => from !== to);
    expect(circles(folders)).toEqual([]);
  });

  it('has no import circle between modules at run time', () => {
    // Types that refer to each other (Tool and RunContext) may sit in two modules; a circle of
    // real imports makes module start-up order matter, and is a design knot. A module loaded on
    // first use cannot be part of start-up order, so only the folder rules above count it.
    const loadedAtStart = edges.filter((edge) => !edge.typeOnly && !edge.dynamic);
    expect(circles(loadedAtStart)).toEqual([]);
  });

  it('sees imports made on first use', () => {
    expect(edges.some((edge) => edge.dynamic && folderOf(edge.from) === 'cli')).toBe(true);
  });

  it('keeps each folder small enough to name: at most 40 files besides tests', () => {
    const crowded = Object.entries(countBy(sourceFiles(), (file) => path.dirname(file)))
      .filter(([, count]) => count > 40)
      .map(([folder, count]) => `${folder}: ${count} files`);
    expect(crowded).toEqual([]);
  });

  it('keeps each file short enough to read: at most 400 lines besides tests', () => {
    const long = sourceFiles()
      .map((file) => ({
        file,
        lines: readFileSync(path.join(SRC, file), 'utf8').split('\n').length - 1,
      }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const looped = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'c.ts' },
      { from: 'c.ts', to: 'a.ts' },
      { from: 'c.ts', to: 'd.ts' },
    ];
    expect(circles(looped)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
