// Whether bubblewrap can confine commands on this machine, found out once per process by running
// it: a missing program, another OS or a kernel without user namespaces all answer "no", with why.
import { execFile } from 'node:child_process';

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

function runProbe(bwrap: string): Promise<Availability> {
  if (process.platform !== 'linux') {
    return Promise.resolve({
      confined: false,
      why: `warren's command sandbox is built on bubblewrap, which runs on Linux only (this is ${process.platform})`,
    });
  }
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
    execFile(bwrap, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve({ confined: true });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? `${bwrap} (bubblewrap) is not installed`
          : `${bwrap} cannot make a sandbox here (${firstLine(stderr) || error.message}); user namespaces may be turned off`;
      resolve({ confined: false, why });
    });
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}
