// A cassette as a ScriptedModel script: each recorded call becomes a turn that answers only its
// own agent (`match.agent`, an anchored path), in turn order. A real session becomes a test
// fixture a person can read and edit, with no cassette machinery.
import { stringify } from 'yaml';
import type { Script, ScriptTurn } from '../model/scripted-script.js';
import type { Cassette } from './cassette.js';

export function cassetteToScript(cassette: Cassette): Script {
  const turns: ScriptTurn[] = [];
  for (const entry of cassette.entries) {
    if (entry.type !== 'model') continue;
    const { content, usage } = entry.response;
    const text = content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    const toolCalls = content.flatMap((part) =>
      part.type === 'tool-call'
        ? [{ name: part.toolName, input: inputObject(part.input), id: part.toolCallId }]
        : [],
    );
    const cacheRead = usage.inputTokens.cacheRead ?? 0;
    const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
    turns.push({
      match: { agent: `/^${escapeRegExp(entry.path)}$/` },
      ...(text ? { text } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(!text && toolCalls.length === 0 ? { text: '' } : {}),
      usage: {
        input:
          usage.inputTokens.noCache ??
          Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite),
        output: usage.outputTokens.total ?? 0,
        cacheRead,
        cacheWrite,
      },
    });
  }
  const model = cassette.header.model;
  const modelId = model?.slice(model.indexOf(':') + 1);
  return modelId ? { model: modelId, turns } : { turns };
}

/** The script as YAML, with a line saying where it came from. */
export function formatScript(script: Script, source: string): string {
  return `# Converted from the cassette ${source}: one turn per recorded model call.\n${stringify(script, { lineWidth: 100 })}`;
}

/** Tool input as recorded is JSON text; a script holds it as an object. */
function inputObject(input: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input || '{}');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Not JSON: the model sent broken arguments; the script keeps them as text.
  }
  return { input };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
