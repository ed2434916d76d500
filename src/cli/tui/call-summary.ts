// A tool call as people read it on one line (`Read src/auth.ts`, `Bash npm test`), and the
// change an Edit or Write would make, as diff lines for a permission prompt.
import path from 'node:path';

/** Input fields that say best what a call is about, in order of preference. */
const SUBJECT_FIELDS = ['file_path', 'command', 'pattern', 'url', 'path', 'to', 'task_id', 'query'];

/** `Read src/auth.ts`; file paths inside `cwd` are shown relative to it. */
export function callSummary(toolName: string, input: unknown, cwd: string): string {
  const subject = callSubject(toolName, input, cwd);
  return subject ? `${toolName} ${subject}` : toolName;
}

/** What the call is about, without the tool's name: a path, a command, a description. */
function callSubject(toolName: string, input: unknown, cwd: string): string {
  if (typeof input !== 'object' || input === null) return '';
  const fields = input as Record<string, unknown>;
  if (typeof fields.description === 'string' && isAgentCall(toolName, fields)) {
    const type = typeof fields.subagent_type === 'string' ? fields.subagent_type : undefined;
    return oneLine(type ? `${type}: ${fields.description}` : fields.description);
  }
  if (toolName === 'TodoWrite' && Array.isArray(fields.todos)) {
    return `${fields.todos.length} todos`;
  }
  for (const field of SUBJECT_FIELDS) {
    const value = fields[field];
    if (typeof value !== 'string' || value === '') continue;
    return oneLine(field === 'file_path' || field === 'path' ? shownPath(value, cwd) : value);
  }
  const first = Object.values(fields).find((value) => typeof value === 'string' && value !== '');
  return typeof first === 'string' ? oneLine(first) : '';
}

export interface DiffLine {
  kind: 'removed' | 'added' | 'context';
  text: string;
}

/** The lines an Edit removes and adds, or a Write's new content; undefined for other tools. */
export function callDiff(toolName: string, input: unknown): DiffLine[] | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  if (toolName === 'Edit' && typeof fields.old_string === 'string') {
    const removed = lines(fields.old_string).map((text) => ({ kind: 'removed' as const, text }));
    const added = lines(String(fields.new_string ?? '')).map((text) => ({
      kind: 'added' as const,
      text,
    }));
    return [...removed, ...added];
  }
  if (toolName === 'Write' && typeof fields.content === 'string') {
    return lines(fields.content).map((text) => ({ kind: 'added' as const, text }));
  }
  return undefined;
}

function isAgentCall(toolName: string, fields: Record<string, unknown>): boolean {
  return toolName === 'Agent' || toolName.startsWith('delegate_to_') || 'subagent_type' in fields;
}

function shownPath(file: string, cwd: string): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function lines(text: string): string[] {
  const all = text.split('\n');
  return all.at(-1) === '' ? all.slice(0, -1) : all;
}

/** First line only, with a mark when there was more. */
function oneLine(text: string): string {
  const trimmed = text.trim();
  const newline = trimmed.indexOf('\n');
  return newline === -1 ? trimmed : `${trimmed.slice(0, newline)} …`;
}
