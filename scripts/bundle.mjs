// The second step of `npm run build`: the package's entry modules (package.json "exports" and
// the CLI's dist/cli/main.js) rebuilt by esbuild as bundles of warren's own code, split into
// shared chunks (dist/chunks/) at every dynamic import(), so what a run loads lazily stays lazy.
// Why: Node resolves, reads and links each ES module on its own; ~300 small files cost more to
// find and link than to compile (docs/performance.md). The library's dependencies stay outside
// its bundle, as installed packages: one copy of zod and the AI SDK, shared with the user's own
// code; the CLI bundles zod and the AI SDK providers into its own chunks (cliPackages below).
// tsc's tree stays in dist/ beside them, for the declarations and for the bench's scripts that
// import internal modules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const { build } = await import('esbuild').catch(() => {
  console.error(
    'build: esbuild is not installed (a devDependency since the bundled build): run `npm ci`, then `npm run build` again',
  );
  process.exit(1);
});

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { exports } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** src/<name>.ts for every "exports" entry (./dist/<name>.js). */
const libraryEntries = Object.values(exports).map((entry) =>
  path.join(ROOT, entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
);

// Two builds: the library's entries share chunks among themselves, the CLI's main is split only
// at its own dynamic imports (with the library's entries in the same build, esbuild cuts shared
// code into a chunk per set of entries reaching it: 74 files for a plain CLI run against 64).
// The CLI never loads the library's entries, so no module exists twice in one process.
await bundle(libraryEntries, 'chunks/[name]-[hash]', { packages: 'external' });
await bundle([path.join(ROOT, 'src/cli/main.ts')], 'chunks/cli-[name]-[hash]', {
  plugins: [cliPackages()],
});

/**
 * The CLI is a program, not a library: nobody shares its zod. So zod and the AI SDK providers,
 * which every `warren -p` loads (zod's ~100 files, 66 of them locales, cost more to find and
 * link than to run), are bundled into its chunks, with what they import. Every other package
 * stays outside, loaded on use from node_modules as before (the load-on-use tests see them).
 * Only warren's direct dependencies may stay outside: a package of theirs may not be where
 * dist/ can find it.
 */
function cliPackages() {
  const inside = ['zod', '@ai-sdk/'];
  const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const direct = new Set(Object.keys(dependencies));
  return {
    name: 'cli-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, ({ path: specifier, importer }) => {
        if (specifier.startsWith('node:')) return { external: true };
        const name = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
        if (inside.some((it) => (it.endsWith('/') ? name.startsWith(it) : name === it))) return;
        // A package that a bundled one imports (eventsource-parser, …) comes with it.
        if (importer.includes(`${path.sep}node_modules${path.sep}`) && !direct.has(name)) return;
        return { path: specifier, external: true };
      });
    },
  };
}

async function bundle(entryPoints, chunkNames, packageOptions) {
  await build({
    entryPoints,
    outdir: path.join(ROOT, 'dist'),
    outbase: path.join(ROOT, 'src'),
    // Chunks sit two levels below the package root, like dist/cli/*.js: a module that finds
    // package.json relative to itself finds it from either.
    chunkNames,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.12',
    ...packageOptions,
    tsconfig: path.join(ROOT, 'tsconfig.build.json'),
    // No keepNames: it wraps every function made at run time (closures on the hot path) in a
    // naming call. Classes keep their names without it; only private helpers that share a name
    // across modules get a numbered one.
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}
