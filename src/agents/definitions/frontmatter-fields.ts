// Reads the frontmatter's fields: strict YAML first, the lenient line parser when that fails,
// with each field's line kept so later warnings can point at it.
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { AgentDiagnostic } from './agent-load-entry.js';
import { parseFrontmatterLeniently } from './lenient-frontmatter.js';

export interface FrontmatterFields {
  fields: Record<string, unknown>;
  /** File line of each field's key. */
  lines: Record<string, number>;
  /** What the lenient parser had to repair; empty when the YAML was valid. */
  repairs: AgentDiagnostic[];
}

/** @param firstLine file line of the frontmatter's first line */
export function readFrontmatterFields(frontmatter: string, firstLine: number): FrontmatterFields {
  const lineCounter = new LineCounter();
  const doc = parseDocument(frontmatter, { lineCounter, uniqueKeys: true });
  const firstError = doc.errors[0];
  if (firstError === undefined && doc.contents === null) {
    return { fields: {}, lines: {}, repairs: [] };
  }
  if (firstError === undefined && isMap(doc.contents)) {
    const lines: Record<string, number> = {};
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) continue;
      lines[String(pair.key.value)] = firstLine - 1 + lineCounter.linePos(pair.key.range[0]).line;
    }
    return { fields: doc.toJS() as Record<string, unknown>, lines, repairs: [] };
  }

  const lenient = parseFrontmatterLeniently(frontmatter, firstLine);
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
