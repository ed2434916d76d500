// The second step of `npm run build`: the package's entry modules (package.json "exports" and
// the CLI's dist/cli/main.js) rebuilt by esbuild as bundles of warren's own code, split into
// shared chunks (dist/chunks/) at every dynamic import(), so what a run loads lazily stays lazy.
// Why: Node resolves, reads and links each ES module on its own; ~300 small files cost more to
// find and link than to compile (docs/performance.md). Dependencies stay outside the bundle, as
// installed packages: one copy of zod and the AI SDK, shared with the user's own code.
// tsc's tree stays in dist/ beside them, for the declarations and for the bench's scripts that
// import internal modules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { exports } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** src/<name>.ts for every "exports" entry (./dist/<name>.js), and the CLI's main. */
const entryPoints = [
  ...Object.values(exports).map((entry) =>
    entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
  ),
  'src/cli/main.ts',
].map((file) => path.join(ROOT, file));

await build({
  entryPoints,
  outdir: path.join(ROOT, 'dist'),
  outbase: path.join(ROOT, 'src'),
  // Chunks sit two levels below the package root, like dist/cli/*.js: a module that finds
  // package.json relative to itself finds it from either.
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  packages: 'external',
  tsconfig: path.join(ROOT, 'tsconfig.build.json'),
  // Class and function names stay as written: errors and events show them.
  keepNames: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
