// Turns a parsed YAML document into plain values without trusting it. A definition file comes
// from a stranger: a few lines of aliases can expand into billions of values, or an alias can
// sit inside its own anchor and make a value that contains itself.

import { type Document, visit } from 'yaml';
import { messageOf } from '../core/error-message.js';

export type YamlValues =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /** What is wrong and how to fix it, for a load error. */
      message: string;
      /** Offset in the parsed text of the first alias, where the problem is shown. */
      offset: number;
    };

export function yamlValues(doc: Document): YamlValues {
  let value: unknown;
  try {
    // The library refuses an alias fan-out (its default limit) by throwing.
    value = doc.toJS();
  } catch (error) {
    return {
      ok: false,
      message: `the frontmatter's YAML cannot be expanded (${firstLine(error)}): write the values out instead of repeating them with \`&anchor\` and \`*alias\``,
      offset: firstAliasOffset(doc),
    };
  }
  if (containsItself(value)) {
    return {
      ok: false,
      message:
        'a YAML alias (`*name`) is used inside its own anchor, so the value contains itself: write the value out instead',
      offset: firstAliasOffset(doc),
    };
  }
  return { ok: true, value };
}

function firstAliasOffset(doc: Document): number {
  let offset = 0;
  visit(doc, {
    Alias(_, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

/** Whether a value reached from itself (a cycle; shared, non-cyclic parts are fine). */
function containsItself(value: unknown, open = new Set<object>()): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (open.has(value)) return true;
  open.add(value);
  const children = value instanceof Map ? [...value.values()] : Object.values(value);
  const cyclic = children.some((child) => containsItself(child, open));
  open.delete(value);
  return cyclic;
}

function firstLine(error: unknown): string {
  const message = messageOf(error);
  return message.split('\n', 1)[0] ?? message;
}
