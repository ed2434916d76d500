#!/usr/bin/env node
// Entry of the `warren` command: check the Node version before loading anything that needs it.
// The same minimum as package.json's "engines"; said in words a user can act on, wherever they are.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  const { dirname, relative, isAbsolute } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const home = dirname(dirname(fileURLToPath(import.meta.url)));
  const inside = relative(home, process.cwd());
  // Only a checkout of warren itself pins a Node (npm ci installs it into node_modules/.bin).
  const here =
    !inside.startsWith('..') &&
    !isAbsolute(inside) &&
    !inside.split(/[\\/]/).includes('node_modules')
      ? ' In this checkout, run it through npm scripts or "npx warren", which use its pinned Node 24.'
      : '';
  process.stderr.write(
    `warren: needs Node 22.12 or newer, this is ${process.version}. Install Node 24 (LTS) from https://nodejs.org or with your version manager (e.g. "nvm install 24", "fnm use 24", "volta install node@24"), then run warren again.${here}\n`,
  );
  process.exit(2);
}
// A reader that stops early (`warren … | head -1`) closes the pipe: that ends the output, quietly.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
// Compiled code is cached between runs (in the OS temp folder): start-up is what people feel.
(await import('node:module')).enableCompileCache?.();
const { main, processIo } = await import('../dist/cli/main.js');
const code = await main(process.argv.slice(2), processIo);
process.exitCode = code;
// Leave once stdout and stderr have drained (a JSON result piped to another program must arrive
// whole), without waiting for work the run abandoned, such as a tool that ignored its stop.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
