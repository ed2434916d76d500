// The --cwd flag's one default, the folder warren was started in: every command takes its
// working directory from here, and a run carries it on in its plan (src/run/).
import { resolve } from 'node:path';

export function cwdFlag(args: { cwd?: string }): string {
  return resolve(args.cwd ?? process.cwd());
}
