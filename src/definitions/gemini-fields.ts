// Gemini CLI's agent files (`.gemini/agents/*.md`) read field by field: `name`, `description`,
// `tools` (Gemini's tool names and `mcp_*` wildcards), `mcpServers`, `model`, `temperature`,
// `max_turns`, `timeout_mins` and `kind`. What warren cannot honour is said, never silently lost.
import { at, type MappedFields, startMapping } from './mapped-fields.js';

/** Milliseconds in one of `timeout_mins`. */
const MINUTE_MS = 60_000;

/** @param lines file line of each frontmatter key */
export function mapGeminiFields(
  written: Record<string, unknown>,
  lines: Record<string, number>,
): MappedFields {
  const { mapped, lineOf, keep } = startMapping(lines);
  for (const [key, value] of Object.entries(written)) {
    switch (key) {
      case 'kind':
        // `kind: remote` was taken out before (remote-agent-fields.ts).
        if (value !== 'local') {
          mapped.warnings.push(
            at(
              lineOf(key),
              `\`kind\` must be \`local\` or \`remote\` (got ${JSON.stringify(value)}); read as local`,
            ),
          );
        }
        mapped.extra.push([key, value]);
        break;
      case 'timeout_mins':
        if (typeof value === 'number' && value > 0) {
          keep(key, 'timeBudgetMs', Math.round(value * MINUTE_MS));
          mapped.notes.push(
            at(
              lineOf(key),
              `read \`timeout_mins: ${value}\` as \`timeBudgetMs: ${Math.round(value * MINUTE_MS)}\``,
            ),
          );
        } else {
          mapped.warnings.push(
            at(
              lineOf(key),
              `\`timeout_mins\` must be a number of minutes above 0 (got ${JSON.stringify(value)}); the field is ignored`,
            ),
          );
          mapped.extra.push([key, value]);
        }
        break;
      case 'model':
        if (typeof value === 'string' && /^gemini-/i.test(value.trim())) {
          mapped.warnings.push(
            at(
              lineOf(key),
              `\`model\`: warren has no Gemini provider, so \`${value.trim()}\` cannot run here; the agent uses its parent's model (write \`model: provider:model\` to choose one)`,
            ),
          );
          mapped.extra.push([key, value]);
        } else {
          keep(key, key, value);
        }
        break;
      case 'tools':
        keep(key, key, Array.isArray(value) ? value.map(geminiToolName) : value);
        break;
      default:
        keep(key, key, value);
    }
  }
  return mapped;
}

/**
 * Gemini's MCP wildcards in warren's spelling: `mcp_*` is every MCP tool, `mcp_<server>_*` every
 * tool of one server. Other names go on to the tool-name mapping (`read_file` is Read).
 */
function geminiToolName(entry: unknown): unknown {
  if (typeof entry !== 'string') return entry;
  const name = entry.trim();
  if (name === 'mcp_*') return 'mcp__*';
  const server = /^mcp_(.+)_\*$/.exec(name);
  if (server) return `mcp__${server[1]}__*`;
  return name;
}
