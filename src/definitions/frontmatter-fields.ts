// Reads the frontmatter's fields: strict YAML first, the lenient line parser when that fails,
// with each field's line kept so later warnings can point at it.
import { isMap, isScalar, LineCounter } from 'yaml';
import type { AgentDiagnostic } from './agent-load-entry.js';
import { isKnownKey } from './field-names.js';
import { frontmatterOverCap } from './frontmatter-cap.js';
import { descriptionCut, parseFrontmatterLeniently } from './lenient-frontmatter.js';
import { parseYamlLinear } from './linear-yaml.js';
import { yamlValues } from './yaml-values.js';

export interface FrontmatterFields {
  fields: Record<string, unknown>;
  /** File line of each field's key. */
  lines: Record<string, number>;
  /** What the lenient parser had to repair; empty when the YAML was valid. */
  repairs: AgentDiagnostic[];
  /** Set when the fields cannot be read at all (an alias fan-out): the file cannot be used. */
  error?: AgentDiagnostic;
}

/** @param firstLine file line of the frontmatter's first line */
export function readFrontmatterFields(frontmatter: string, firstLine: number): FrontmatterFields {
  const overCap = frontmatterOverCap(frontmatter, firstLine);
  if (overCap) return { fields: {}, lines: {}, repairs: [], error: overCap };
  const lineCounter = new LineCounter();
  const doc = parseYamlLinear(frontmatter, lineCounter);
  const firstError = doc.errors[0];
  if (firstError === undefined && doc.contents === null) {
    return { fields: {}, lines: {}, repairs: [] };
  }
  const lineAt = (offset: number) => firstLine - 1 + lineCounter.linePos(offset).line;
  if (firstError === undefined && isMap(doc.contents)) {
    const values = yamlValues(doc);
    if (!values.ok) {
      const error = { line: lineAt(values.offset), message: values.message };
      return { fields: {}, lines: {}, repairs: [], error };
    }
    const lines: Record<string, number> = Object.create(null);
    const keys: string[] = [];
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) continue;
      keys.push(String(pair.key.value));
      lines[String(pair.key.value)] = lineAt(pair.key.range[0]);
    }
    const repairs = descriptionCutWarnings(keys, lines);
    return { fields: values.value as Record<string, unknown>, lines, repairs };
  }

  const lenient = parseFrontmatterLeniently(frontmatter, firstLine);
  if (lenient.error) return { fields: {}, lines: {}, repairs: [], error: lenient.error };
  const yamlProblem =
    firstError?.message.split('\n')[0] ?? 'it is not a map of `key: value` fields';
  const repairs =
    lenient.fixes.length > 0
      ? lenient.fixes
      : [
          {
            line: firstLine - 1 + (firstError?.linePos?.[0].line ?? 1),
            message: `the frontmatter is not valid YAML (${yamlProblem}); it was read line by line instead`,
          },
        ];
  return { fields: lenient.fields, lines: lenient.lines, repairs };
}

/**
 * Valid YAML is read as written, but a key no definition file uses right after `description`
 * (`user:` of an example dialogue) was most likely meant to be part of it: say where it was cut.
 */
function descriptionCutWarnings(keys: string[], lines: Record<string, number>): AgentDiagnostic[] {
  const index = keys.indexOf('description');
  const next = keys[index + 1];
  if (index === -1 || next === undefined || isKnownKey(next)) return [];
  return [descriptionCut(lines.description!, next, lines[next]!)];
}
