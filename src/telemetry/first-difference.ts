// Where two JSON values first differ, said so a person can find it: the path into the value
// and both sides, shortened. What a replay mismatch reports.

export interface Difference {
  /** `prompt[3].content[0].text`; empty for the values themselves. */
  path: string;
  recorded: string;
  actual: string;
}

/** The first difference in document order, or undefined when the values are equal. */
export function firstDifference(
  recorded: unknown,
  actual: unknown,
  path = '',
): Difference | undefined {
  if (Object.is(recorded, actual)) return undefined;
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    const length = Math.max(recorded.length, actual.length);
    for (let index = 0; index < length; index++) {
      const difference = firstDifference(recorded[index], actual[index], `${path}[${index}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])];
    for (const key of keys) {
      const difference = firstDifference(recorded[key], actual[key], path ? `${path}.${key}` : key);
      if (difference) return difference;
    }
    return undefined;
  }
  if (typeof recorded === 'string' && typeof actual === 'string') {
    // Long texts often share a long start: show both from a little before they part.
    let at = 0;
    while (at < recorded.length && recorded[at] === actual[at]) at++;
    const from = Math.max(0, at - CONTEXT_BEFORE);
    const cut = (text: string) => (from === 0 ? show(text) : `…${show(text.slice(from)).slice(1)}`);
    return { path, recorded: cut(recorded), actual: cut(actual) };
  }
  return { path, recorded: show(recorded), actual: show(actual) };
}

/** Characters shown before the first one in which two texts differ. */
const CONTEXT_BEFORE = 30;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_SHOWN = 120;

function show(value: unknown): string {
  if (value === undefined) return '(nothing)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
