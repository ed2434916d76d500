// The second step of `npm run build`: the package's entry modules (package.json "exports" and
// the CLI's dist/cli/main.js) rebuilt by rolldown as bundles of warren's own code, split into
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

const { build } = await import('rolldown').catch(() => {
  console.error(
    'build: rolldown is not installed (a devDependency since the bundled build): run `npm ci`, then `npm run build` again',
  );
  process.exit(1);
});

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { exports, dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** <name> → src/<name>.ts for every "exports" entry (./dist/<name>.js). */
const libraryEntries = Object.fromEntries(
  Object.values(exports).map((entry) => {
    const name = entry.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
    return [name, path.join(ROOT, 'src', `${name}.ts`)];
  }),
);

// Two builds, as their packages differ: the library leaves every package installed, the CLI
// bundles zod and the AI SDK providers (cliPackages below). The library's entries share chunks
// among themselves; the CLI's main is split only at its own dynamic imports. The CLI never
// loads the library's entries, so no module exists twice in one process.
await bundle(libraryEntries, 'chunks/[name]-[hash].js', libraryPackages());
await bundle(
  { 'cli/main': path.join(ROOT, 'src/cli/main.ts') },
  'chunks/cli-[name]-[hash].js',
  cliPackages(),
);

/** The library imports every package from node_modules, as the user's own code does. */
function libraryPackages() {
  return {
    name: 'library-packages',
    resolveId(specifier) {
      if (/^[^./]/.test(specifier) && !path.isAbsolute(specifier)) {
        return { id: specifier, external: true };
      }
    },
  };
}

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
  const direct = new Set(Object.keys(dependencies));
  return {
    name: 'cli-packages',
    resolveId(specifier, importer) {
      if (!/^[^./]/.test(specifier) || path.isAbsolute(specifier)) return;
      if (specifier.startsWith('node:')) return { id: specifier, external: true };
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      if (inside.some((it) => (it.endsWith('/') ? name.startsWith(it) : name === it))) return;
      // A package that a bundled one imports (eventsource-parser, …) comes with it.
      if (importer?.includes(`${path.sep}node_modules${path.sep}`) && !direct.has(name)) return;
      return { id: specifier, external: true };
    },
  };
}

async function bundle(input, chunkFileNames, packages) {
  await build({
    cwd: ROOT,
    input,
    platform: 'node',
    plugins: [packages],
    tsconfig: path.join(ROOT, 'tsconfig.build.json'),
    transform: { target: 'node22.12' },
    logLevel: 'warn',
    output: {
      dir: path.join(ROOT, 'dist'),
      format: 'esm',
      entryFileNames: '[name].js',
      // Chunks sit two levels below the package root, like dist/cli/*.js: a module that finds
      // package.json relative to itself finds it from either.
      chunkFileNames,
      sourcemap: true,
      // No keepNames: it wraps functions in naming calls; classes keep their names without it.
      // No JSDoc or legal comments: less to read at each start. rolldown still writes the
      // `// src/…` line above each bundled file, which src/testing/loaded-modules.ts reads.
      comments: { legal: false, annotation: true, jsdoc: false },
    },
  });
}
