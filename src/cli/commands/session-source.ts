// The session `warren usage` and `warren report` read: its transcripts as a timeline, with
// every line that could not be read reported on stderr. No id given: the folder's newest session.
import { resolve } from 'node:path';
import { findLatestSession } from '../../session/latest-session.js';
import { readSessionEvents } from '../../session/session-events.js';
import { defaultSessionDir } from '../../session/session-paths.js';
import { buildTimeline, type SessionTimeline } from '../../telemetry/session-timeline.js';
import type { SessionArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';

export function loadTimeline(args: SessionArgs, io: CliIo): SessionTimeline {
  const sessionDir = resolve(args.sessionDir ?? defaultSessionDir());
  // Without an id, the newest session of this folder, as `--continue` would pick it.
  const sessionId =
    args.sessionId ??
    findLatestSession({
      sessionDir,
      cwd: resolve(args.cwd ?? '.'),
      where: `warren ${args.command}`,
      fix: `pass a session id (warren ${args.command} <session-id>), --cwd for another folder, or --session-dir if sessions are kept elsewhere`,
    });
  const session = readSessionEvents({ sessionDir, sessionId, where: `warren ${args.command}` });
  for (const warning of session.warnings) io.stderr(`warren: warning: ${warning}\n`);
  return buildTimeline(session.sessionId, session.events);
}
