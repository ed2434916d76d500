// `warren report <session-id> [--html <file>]`: writes the session's timeline page (next to its
// transcripts unless --html says where) and prints where it went.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { defaultSessionDir } from '../../session/session-paths.js';
import type { SessionArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { renderReport } from './report-html.js';
import { loadTimeline } from './session-source.js';

export async function runReportCommand(args: SessionArgs, io: CliIo): Promise<number> {
  const timeline = loadTimeline(args, io);
  const file = resolve(
    args.html ?? join(args.sessionDir ?? defaultSessionDir(), `${timeline.sessionId}.html`),
  );
  const page = renderReport(timeline);
  try {
    writeFileSync(file, page);
  } catch (error) {
    throw new ConfigError(
      `--html ${args.html ?? file}`,
      `cannot write the report: ${(error as Error).message}`,
      'give a path in a folder that exists and you can write to',
    );
  }
  io.stdout(`${file}\n`);
  return 0;
}
