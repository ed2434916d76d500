// How one warren tool call looks to an ACP client: its kind, its title, the files it touches,
// and for Edit and Write the diff an editor shows before and after the call runs.
import { resolve } from 'node:path';
import type { Diff, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

const KINDS: Readonly<Record<string, ToolKind>> = {
  Read: 'read',
  Write: 'edit',
  Edit: 'edit',
  Glob: 'search',
  Grep: 'search',
  Bash: 'execute',
  WebFetch: 'fetch',
  TodoWrite: 'think',
};

export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? 'other';
}

/** Whether the tool starts an agent: its call contains the child's activity. */
export function startsAgent(toolName: string): boolean {
  return toolName === 'Agent' || toolName.startsWith('delegate_to_');
}

function field(input: unknown, name: string): string | undefined {
  const value = (input as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** `Read src/a.ts`, `Bash: npm test`, `Agent: find the notes`; the tool's name at least. */
export function toolTitle(toolName: string, input: unknown): string {
  const subject =
    field(input, 'file_path') ??
    field(input, 'command') ??
    field(input, 'pattern') ??
    field(input, 'url') ??
    field(input, 'description');
  if (subject === undefined) return toolName;
  const oneLine = subject.replace(/\s+/g, ' ').trim();
  return `${toolName}: ${oneLine.length > 120 ? `${oneLine.slice(0, 119)}…` : oneLine}`;
}

/** The file a call is about, absolute (as ACP wants paths), relative ones against `cwd`. */
export function toolLocations(input: unknown, cwd: string | undefined): ToolCallLocation[] {
  const file = field(input, 'file_path') ?? field(input, 'path');
  if (file === undefined) return [];
  return [{ path: cwd === undefined ? file : resolve(cwd, file) }];
}

/**
 * Edit's replacement or Write's new content as an ACP diff. Write's old text is not read: the
 * editor has the file, and the agent's paths are checked only when the tool runs.
 */
export function toolDiff(toolName: string, input: unknown): (Diff & { type: 'diff' }) | undefined {
  const path = field(input, 'file_path');
  if (path === undefined) return undefined;
  if (toolName === 'Edit') {
    const oldText = field(input, 'old_string');
    const newText = field(input, 'new_string');
    if (oldText === undefined || newText === undefined) return undefined;
    return { type: 'diff', path, oldText, newText };
  }
  if (toolName === 'Write') {
    const content = field(input, 'content');
    return content === undefined
      ? undefined
      : { type: 'diff', path, oldText: null, newText: content };
  }
  return undefined;
}

export function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}
