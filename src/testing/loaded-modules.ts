// What a Node process loaded, for tests that hold warren to loading only what a run uses: a
// module hook (passed in NODE_OPTIONS) notes every module, and on exit the process writes
// their packages, warren's own source files and the built-ins Node loaded (node:sqlite is taken
// without a module load).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LoadedModules {
  /** npm packages with at least one module loaded: `yaml`, `@modelcontextprotocol/sdk`. */
  packages: Set<string>;
  /** Node's own modules, as `process.moduleLoadList` names them: `NativeModule sqlite`. */
  builtins: string[];
  /**
   * warren's own source files whose code was loaded, as `src/tools/grep-search.ts`: from the
   * `// src/…` line the bundler (rolldown) writes above each file it bundles into dist/, or the file itself.
   */
  sources: Set<string>;
}

/** warren's modules that load on first use: a run that does not use them never loads them. */
export const WARREN_LOADED_ON_USE = [
  'src/agents/child-worktree.ts',
  'src/cli/trust/',
  'src/isolation/',
  'src/mcp/mcp-tool.ts',
  'src/tasks/background-bash-launch.ts',
  'src/tasks/caller-task.ts',
  'src/tasks/list-agents-call.ts',
  'src/tasks/local-bash-executor.ts',
  'src/tasks/send-message-call.ts',
  'src/tasks/task-output-call.ts',
  'src/tasks/task-stop-call.ts',
  'src/tasks/task-view.ts',
  'src/tools/bash-command.ts',
  'src/tools/glob-search.ts',
  'src/tools/grep-search.ts',
  'src/tools/web-fetch-page.ts',
] as const;

/** warren's modules among `loaded` that load on first use (a folder matches any file in it). */
export function onUseSourcesIn(loaded: LoadedModules): string[] {
  return [...loaded.sources]
    .filter((file) => WARREN_LOADED_ON_USE.some((lazy) => file.startsWith(lazy)))
    .sort();
}

/** Heavy dependencies warren must load only for a run that uses them. */
export const LOADED_ON_USE = [
  '@modelcontextprotocol/sdk',
  '@agentclientprotocol/sdk',
  '@a2a-js/sdk',
  'jose',
  'jsonc-parser',
  'quickjs-emscripten-core',
  'yaml',
  'html-to-text',
  '@opentelemetry/',
  '@restatedev/',
  'ink',
  'react',
  'picomatch',
  'ipaddr.js',
] as const;

/** The heavy packages among `loaded` (a scope like `@opentelemetry/` matches any of its packages). */
export function heavyPackagesIn(loaded: LoadedModules): string[] {
  return [...loaded.packages].filter((name) =>
    LOADED_ON_USE.some((heavy) => (heavy.endsWith('/') ? name.startsWith(heavy) : name === heavy)),
  );
}

const HOOK = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const urls = [];
registerHooks({ load(url, context, nextLoad) { urls.push(url); return nextLoad(url, context); } });
process.on('exit', () => {
  writeFileSync(process.env.WARREN_TEST_MODULE_LOG, JSON.stringify({ urls, builtins: process.moduleLoadList }));
});
`;

/**
 * Prepares the hook in `dir`: `env` goes into the watched process's environment, and `read()`
 * after it exits says what it loaded.
 */
export function watchModuleLoads(dir: string): {
  env: Record<string, string>;
  read(): LoadedModules;
} {
  const hook = join(dir, 'module-log-hook.mjs');
  const log = join(dir, 'module-log.json');
  writeFileSync(hook, HOOK);
  return {
    env: { NODE_OPTIONS: `--import=${hook}`, WARREN_TEST_MODULE_LOG: log },
    read: () => {
      const { urls, builtins } = JSON.parse(readFileSync(log, 'utf8')) as {
        urls: string[];
        builtins: string[];
      };
      const packages = new Set<string>();
      const sources = new Set<string>();
      for (const url of urls) {
        const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
        if (name) packages.add(name);
        else if (url.startsWith('file:')) for (const file of sourcesOf(url)) sources.add(file);
      }
      return { packages, builtins, sources };
    },
  };
}

/**
 * The source files of one of warren's loaded modules: a bundle's `// src/…` lines, else the
 * file itself (tsc's dist/x.js is src/x.ts).
 */
function sourcesOf(url: string): string[] {
  const file = fileURLToPath(url);
  const own = /\/(src\/.+\.ts)$/.exec(file)?.[1];
  if (own) return [own];
  const built = /\/dist\/(.+)\.js$/.exec(file)?.[1];
  if (!built) return [];
  const bundled = [...readFileSync(file, 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm)];
  return bundled.length > 0 ? bundled.map((hit) => hit[1] as string) : [`src/${built}.ts`];
}
