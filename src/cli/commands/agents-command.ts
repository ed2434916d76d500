// `warren agents [--json]`: every definition warren can see, where it came from, and what the
// loader had to fix or could not use. A broken file is a listed error and exit 1, never a crash.
import { homedir } from 'node:os';
import { loadAgentDefinitions } from '../../definitions/load-agent-definitions.js';
import { cwdFlag } from '../cwd-flag.js';
import type { AgentsArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { projectTrust } from '../trust/project-trust.js';
import { agentTrustChecker } from './agent-trust.js';
import { agentsListing, formatAgentsListing } from './agents-listing.js';

export async function runAgentsCommand(args: AgentsArgs, io: CliIo): Promise<number> {
  const cwd = cwdFlag(args);
  const [loaded, trust] = await Promise.all([
    loadAgentDefinitions({ cwd, agentsDirs: args.agentsDirs }),
    projectTrust(cwd, { agentsDirs: args.agentsDirs }),
  ]);
  const listing = agentsListing(loaded, agentTrustChecker(trust));
  io.stdout(
    args.json
      ? `${JSON.stringify(listing, null, 2)}\n`
      : formatAgentsListing(listing, { cwd, homeDir: homedir() }),
  );
  // Everything is printed either way; the exit code lets a script or CI notice a broken file.
  return listing.errors > 0 ? 1 : 0;
}
