// The CLI as a user has it: a warren checkout packed with `npm pack` and installed with `npm
// install` into a scratch project of its own, so `warren -p` starts from that project's
// node_modules/.bin, with its dependencies hoisted beside it, as after `npm install warren`.
// Projects are kept per tarball (its sha1) in the OS temp folder: a rerun reuses them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Packs `root` (its dist/ must be built) and returns a project folder with it installed; the
 * command to run is `<project>/node_modules/.bin/warren`. Throws an Error with a one-line message.
 */
export function prepareInstalledCli({ root, log }) {
  const base = path.join(tmpdir(), 'warren-bench-installed');
  mkdirSync(base, { recursive: true });
  const packDir = mkdtempSync(path.join(base, 'pack-'));
  try {
    // Scripts off: `prepare` would rebuild what the bench has just built.
    const packed = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
      cwd: root,
      what: `npm pack of ${root}`,
    });
    const [{ filename, shasum }] = JSON.parse(packed);
    const project = path.join(base, shasum);
    const marker = path.join(project, '.installed');
    if (existsSync(marker)) return project;
    log(`cli: installing ${filename} into ${project} (npm install, once per tarball)`);
    rmSync(project, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'bench-user-project', private: true }, null, 2)}\n`,
    );
    // From the tarball and npm's cache where it can; the registry for what the cache lacks.
    npm(
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        path.join(packDir, filename),
      ],
      { cwd: project, what: `npm install of ${filename}` },
    );
    writeFileSync(marker, `${new Date().toISOString()}\n`);
    return project;
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

function npm(args, { cwd, what }) {
  const result = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    const said = `${result.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${what} failed (exit ${result.status}): ${said || result.error?.message}`);
  }
  return result.stdout;
}
