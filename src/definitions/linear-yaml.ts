// Parses frontmatter YAML in time linear in its size. The library's own duplicate-key check
// compares each key with every earlier one (200,000 keys took minutes); this one keeps a set
// per map and reports the first duplicate as the library would.
import {
  type Document,
  isScalar,
  type LineCounter,
  parseDocument,
  visit,
  YAMLParseError,
} from 'yaml';

/** parseDocument with `uniqueKeys`, without its quadratic cost; same errors, same order. */
export function parseYamlLinear(source: string, lineCounter: LineCounter): Document {
  const doc = parseDocument(source, { lineCounter, uniqueKeys: false });
  const offset = firstDuplicateKey(doc);
  if (offset === undefined) return doc;
  const error = new YAMLParseError(
    [offset, offset + 1],
    'DUPLICATE_KEY',
    'Map keys must be unique',
  );
  error.linePos = [lineCounter.linePos(offset)];
  error.message += ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
  const after = doc.errors.findIndex((other) => other.pos[0] > offset);
  doc.errors.splice(after === -1 ? doc.errors.length : after, 0, error);
  return doc;
}

/** Offset of the first key that repeats an earlier scalar key of the same map. */
function firstDuplicateKey(doc: Document): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const value = pair.key.value;
        if (seen.has(value)) {
          const offset = pair.key.range?.[0] ?? 0;
          if (found === undefined || offset < found) found = offset;
          break;
        }
        seen.add(value);
      }
    },
  });
  return found;
}
