// Where a mistake stands in a script file: an issue's path followed through the YAML nodes to
// its offset, as far as the file has them, with YAML itself loaded only when a script needs it.
import { createRequire } from 'node:module';

/**
 * The YAML package, loaded on first use (synchronously: parseScript is): `import 'warren/testing'`
 * and a run on a JSON script never load it.
 */
export function yaml(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}
let yamlModule: typeof import('yaml') | undefined;

/** An issue's path as text: `turns[2].tool_calls[0].name`. */
export function joinPath(path: string, key: PropertyKey): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${String(key)}` : String(key);
}

export interface Located {
  offset: number;
  /** The path as spelled in the file (snake_case where the file used it). */
  path: string;
  /** The deepest node on the path that the file has. */
  node: unknown;
}

/** Follows an issue's path through the YAML nodes, as far as the file has them. */
export function locate(
  root: unknown,
  segments: readonly PropertyKey[],
  prefix: string,
  /** Another spelling a key may have in the file (snake_case of a camelCase field). */
  aliasOf: Readonly<Record<string, string>>,
): Located {
  let node = root;
  let offset = startOf(root) ?? 0;
  let path = prefix;
  let found = true;
  for (const segment of segments) {
    const child: Child | undefined = found ? childOf(node, segment, aliasOf) : undefined;
    found = child !== undefined;
    path = joinPath(path, child?.key ?? segment);
    if (!child) continue;
    node = child.node;
    offset = startOf(node) ?? offset;
  }
  return { offset, path, node };
}

interface Child {
  node: unknown;
  key: PropertyKey;
}

function childOf(
  node: unknown,
  segment: PropertyKey,
  aliasOf: Readonly<Record<string, string>>,
): Child | undefined {
  const { isMap, isScalar, isSeq } = yaml();
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? undefined : { node: item, key: segment };
  }
  if (!isMap(node) || typeof segment !== 'string') return undefined;
  const pair = node.items.find(
    (item) =>
      isScalar(item.key) && (item.key.value === segment || item.key.value === aliasOf[segment]),
  );
  if (!pair || !isScalar(pair.key)) return undefined;
  return { node: pair.value ?? pair.key, key: String(pair.key.value) };
}

/** Where an unknown key is written, so the error points at the typo itself. */
export function keyOffset(node: unknown, key: string): number | undefined {
  const { isMap, isScalar } = yaml();
  if (!isMap(node)) return undefined;
  const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
  return pair ? startOf(pair.key) : undefined;
}

export function startOf(node: unknown): number | undefined {
  if (typeof node !== 'object' || node === null || !('range' in node)) return undefined;
  const range = (node as { range?: unknown }).range;
  return Array.isArray(range) && typeof range[0] === 'number' ? range[0] : undefined;
}
