// A parsed YAML document as plain values, with its aliases bounded: a "billion laughs" file of
// a few hundred bytes would otherwise expand into gigabytes. Past the bound, a ConfigError.
import { ConfigError } from '../core/config-error.js';

/** Far more aliases than a script needs; past it, expansion could take all of memory. */
const MAX_ALIASES = 100;

/** The document as plain values, or a ConfigError for one whose aliases expand without end. */
export function expandAliases(
  document: { toJS(options: { maxAliasCount: number }): unknown },
  file: string,
): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    if (!(error instanceof ReferenceError) || !/alias/i.test(error.message)) throw error;
    throw new ConfigError(
      file,
      `its aliases expand to too much (over ${MAX_ALIASES} uses of one anchor): a YAML bomb, or a script that leans on aliases`,
      'write the turns out in full, with fewer * aliases',
    );
  }
}
