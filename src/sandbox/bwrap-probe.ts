// Whether bubblewrap can confine commands on this machine, found out once per process by running
// it: a missing program, another OS or a kernel without user namespaces all answer "no", with why.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export type Availability = { confined: true } | { confined: false; why: string };

const probes = new Map<string, Promise<Availability>>();

/** The answer for `bwrap` (a program name or path), asked once and remembered. */
export function probeBwrap(bwrap: string): Promise<Availability> {
  let probe = probes.get(bwrap);
  if (probe === undefined) {
    probe = runProbe(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}

/**
 * Why bubblewrap plainly cannot be had, found without running anything (another OS, not on
 * PATH); undefined when it is there to try.
 */
export function plainlyMissing(bwrap: string): string | undefined {
  if (process.platform !== 'linux') {
    return `warren's command sandbox is built on bubblewrap, which runs on Linux only (this is ${process.platform})`;
  }
  return onPath(bwrap) ? undefined : `${bwrap} (bubblewrap) is not installed`;
}

function onPath(program: string): boolean {
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, program));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function runProbe(bwrap: string): Promise<Availability> {
  const missing = plainlyMissing(bwrap);
  if (missing !== undefined) return Promise.resolve({ confined: false, why: missing });
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-net',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--',
    'true',
  ];
  return new Promise((resolve) => {
    // Taken on the first probe: a start that runs no command does not load node:child_process.
    const { execFile } = process.getBuiltinModule('node:child_process');
    execFile(bwrap, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve({ confined: true });
        return;
      }
      const why = `${bwrap} cannot make a sandbox here (${firstLine(stderr) || error.message}); user namespaces may be turned off`;
      resolve({ confined: false, why });
    });
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}
