// The names MCP tools get: `mcp__<server>__<tool>`, made safe for every provider's tool-name rule
// (`^[a-zA-Z0-9_-]{1,64}$`) whatever a server calls its tools, and unique within a server.
import { createHash } from 'node:crypto';

/** What providers accept as a tool name. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
/** Longest server part, so a tool's own name keeps at least half the room. */
const MAX_SERVER_LENGTH = 30;

/**
 * The `mcp__<server>__` part: characters providers refuse become `_`, `__` is squeezed to one
 * `_` so the server part never looks like the separator (`mcp__a__b__c` must split one way),
 * and a very long name is cut and marked with a hash of the whole.
 */
export function serverPrefix(serverName: string): string {
  let safe = serverName.replace(/[^a-zA-Z0-9_-]/g, '_').replace(/_{2,}/g, '_');
  if (safe.length > MAX_SERVER_LENGTH) {
    safe = `${safe.slice(0, MAX_SERVER_LENGTH - 7)}_${shortHash(serverName)}`;
  }
  return `mcp__${safe}__`;
}

/**
 * Exposed names for a server's tools, in order. A name that had to change (bad characters, too
 * long, or equal to another's after that) gets a short hash of the original, so it stays the
 * same from run to run and permission rules written for it keep working.
 */
export function mcpToolNames(serverName: string, toolNames: readonly string[]): string[] {
  const prefix = serverPrefix(serverName);
  const taken = new Set<string>();
  return toolNames.map((original) => {
    const safe = original.replace(/[^a-zA-Z0-9_-]/g, '_');
    let name = `${prefix}${safe}`;
    if (safe !== original || name.length > MAX_LENGTH || taken.has(name) || safe === '') {
      const suffix = `_${shortHash(original)}`;
      name = `${prefix}${safe}`.slice(0, MAX_LENGTH - suffix.length) + suffix;
    }
    // Two originals could still meet after cutting; the index makes the last one unique.
    if (taken.has(name)) name = `${name.slice(0, MAX_LENGTH - 4)}_${taken.size % 1000}`;
    taken.add(name);
    return name;
  });
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}
