// The project's trust for one run: recorded, or given by `--trust-project`, or asked of a person
// (the terminal UI; a yes is recorded as `warren trust` records it); otherwise each item left
// out is one line on stderr.
import type { CliIo } from '../print/print-mode.js';
import { decideProjectTrust, type ProjectTrust, recordProjectTrustOf } from './project-trust.js';
import type { TrustItem } from './trust-item.js';
import { untrustedLines } from './trust-report.js';

export async function decideRunTrust(
  items: readonly TrustItem[],
  params: {
    cwd: string;
    trustProject: boolean;
    io: Pick<CliIo, 'stderr'>;
    ask: ((trust: ProjectTrust) => Promise<boolean>) | undefined;
  },
): Promise<ProjectTrust> {
  const trust = decideProjectTrust(params.cwd, items, { trustProject: params.trustProject });
  if (trust.trusted) return trust;
  if (params.ask) {
    if (!(await params.ask(trust))) return trust;
    recordProjectTrustOf(trust);
    return { ...trust, trusted: true };
  }
  for (const line of untrustedLines(trust)) params.io.stderr(line);
  return trust;
}
