// One thing a project's files would make warren run or allow (a hook, an MCP server, a widening
// permission setting): what it is, where it is written, and every field of it, each hashed on its
// own so a changed item can be named down to the field or file that changed.
import { createHash } from 'node:crypto';

export type TrustItemKind = 'hook' | 'mcp-server' | 'acp-agent' | 'permission-mode' | 'allow-rule';

export interface TrustItem {
  kind: TrustItemKind;
  /** The file it is written in, relative to the project folder: `.warren/settings.json`. */
  file: string;
  /** Where in the file: `hooks.PreToolUse[0].hooks[0]`, `mcpServers.srv`, `permissions.allow[1]`. */
  field: string;
  /** What it would do, in a few words: "run `bash x.sh` on PreToolUse (matcher "Bash")". */
  action: string;
  /**
   * Every field of what would run or be allowed, as the file writes it (`${VAR}`s unexpanded):
   * `command`, `args`, `env.NODE_OPTIONS`, `cwd`, `url`, `headers.Authorization`, `matcher`, …
   */
  fields: Record<string, string>;
  /** The project's files it names (scripts it runs), relative path → sha256 of the content. */
  files: Record<string, string>;
}

/** What the trust record keeps of an item: each part's hash, parts named as in messages. */
export type ItemFingerprint = Record<string, string>;

/** `<file> <field>`: an item's name in the record and in messages. */
export function itemKey(item: Pick<TrustItem, 'file' | 'field'>): string {
  return `${item.file} ${item.field}`;
}

export function fingerprintOf(item: TrustItem): ItemFingerprint {
  const parts: ItemFingerprint = { kind: sha256(item.kind) };
  for (const [name, value] of Object.entries(item.fields)) parts[name] = sha256(value);
  for (const [path, hash] of Object.entries(item.files)) parts[`file ${path}`] = hash;
  return parts;
}

/** The parts that differ between a recorded fingerprint and the item now, in a stable order. */
export function changedParts(recorded: ItemFingerprint, now: ItemFingerprint): string[] {
  const names = new Set([...Object.keys(recorded), ...Object.keys(now)]);
  return [...names].filter((name) => recorded[name] !== now[name]).sort();
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
