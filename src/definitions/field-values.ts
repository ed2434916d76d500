// How written field values become a definition's: lists from `a, b` or `[a, b]`, MCP server
// references as one list, and short previews of bad values for messages.

/** Drops keys whose value is undefined, so a definition only holds what was set. */
export function withoutUndefined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function nameList(value: string | string[]): string[] {
  const items = typeof value === 'string' ? value.split(',') : value;
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))];
}

export function mergeLists(
  fromTools: string[] | undefined,
  written: string | string[] | undefined,
): string[] | undefined {
  if (written === undefined) return fromTools;
  return [...new Set([...(fromTools ?? []), ...nameList(written)])];
}

export type McpServerRef = string | Record<string, unknown>;

/** A server name, `{ name: config }`, or a list of either, as a list. */
export function mcpServerList(value: McpServerRef | McpServerRef[]): McpServerRef[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value;
  return Object.entries(value).map(([name, config]) => ({ [name]: config }));
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // A BigInt or a value that contains itself (SDK input) has no JSON.
    text = Object.prototype.toString.call(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
