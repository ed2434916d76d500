#!/usr/bin/env node
// Entry of the `warren` command: check the Node version before loading anything that needs it.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(
    `warren: needs Node 22 or newer, this is ${process.version} (inside the project, npm scripts and "npx warren" use the pinned Node 24)\n`,
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
