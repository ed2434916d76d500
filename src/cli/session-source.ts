// The session `warren usage` and `warren report` read: its transcripts as a timeline, with
// every line that could not be read reported on stderr.
import { resolve } from 'node:path';
import { readSessionEvents } from '../session/session-events.js';
import { defaultSessionDir } from '../session/session-paths.js';
import { buildTimeline, type SessionTimeline } from '../telemetry/session-timeline.js';
import type { SessionArgs } from './parsed-args.js';
import type { CliIo } from './print-mode.js';

export function loadTimeline(args: SessionArgs, io: CliIo): SessionTimeline {
  const sessionDir = resolve(args.sessionDir ?? defaultSessionDir());
  const session = readSessionEvents({
    sessionDir,
    sessionId: args.sessionId,
    where: `warren ${args.command}`,
  });
  for (const warning of session.warnings) io.stderr(`warren: warning: ${warning}\n`);
  return buildTimeline(session.sessionId, session.events);
}
