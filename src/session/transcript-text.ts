// Reads a transcript file whole for --resume, `warren report` and the event replay: a path
// named on the command line, so a FIFO or device there is refused, not waited on.
import { ConfigError } from '../core/config-error.js';
import { isRefusedFile, readRegularTextSync } from '../core/regular-file.js';

/** 512 MiB: near the longest string JavaScript can hold; a longer transcript cannot be read whole. */
const TRANSCRIPT_MAX_BYTES = 512 * 1024 * 1024;

export function readTranscriptText(file: string): string {
  try {
    return readRegularTextSync(file, { maxBytes: TRANSCRIPT_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(file, error.problem, error.fix);
    throw error;
  }
}
