// The scripted model's script: what a turn may say, and reading a script file so that every
// mistake in it is reported as file:line:column with the field and the fix.

import { extname } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import { isRefusedFile, readRegularText } from '../core/regular-file.js';
import { joinPath, keyOffset, locate, startOf, yaml } from './script-nodes.js';
import { expandAliases } from './yaml-aliases.js';

/** One tool call the scripted model makes. */
export interface ScriptToolCall {
  name: string;
  /** The tool input, sent to the tool as JSON. */
  input: Record<string, unknown>;
  /** Defaults to `call_1`, `call_2`, … numbered through the script in file order. */
  id?: string;
}

/** Token counts reported for a turn; any left out is estimated from the text (chars / 4). */
export interface ScriptUsage {
  /** Input tokens read without the cache. */
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Makes the call fail the way a provider would. */
export interface ScriptError {
  /** HTTP status: the call throws an `APICallError`, retryable for 408, 409, 429 and 5xx. */
  status?: number;
  message?: string;
  /** Seconds, sent back as the `retry-after` response header. */
  retryAfter?: number;
  /**
   * The stream sends this many text deltas and then errors (a cut stream). Without `status`
   * the error counts as a dropped connection: retryable.
   */
  cutAfterDeltas?: number;
}

/**
 * Which requests a turn answers. Each field is a substring, or a regular expression written
 * between slashes (`/^fix/i`); all given fields must fit.
 */
export interface ScriptMatch {
  /** Against the system prompt. */
  system?: string;
  /** Against the text of the last user message. */
  prompt?: string;
  /** Against the text of the last tool result in the conversation. */
  lastToolResult?: string;
  /** Tools that must be offered: each an exact tool name or a `/regex/`. */
  tools?: string[];
  /**
   * Against the calling agent's path in the tree (`main`, `main/Agent#2/explore`), which the
   * loop sends as the `x-warren-agent-path` header.
   */
  agent?: string;
}

/** One answer of the scripted model. A failing turn is used up like any other. */
export interface ScriptTurn {
  text?: string;
  toolCalls?: ScriptToolCall[];
  usage?: ScriptUsage;
  /** Wait this long before answering; an abort ends the wait. */
  delayMs?: number;
  error?: ScriptError;
  /** Without `match` a turn answers any request. */
  match?: ScriptMatch;
}

/** A script as read from a file. */
export interface Script {
  /** Reported as the model id. */
  model?: string;
  turns: ScriptTurn[];
}

/** The snake_case spellings script files may use, and the field each names. */
const SNAKE_CASE_ALIASES: Readonly<Record<string, string>> = {
  tool_calls: 'toolCalls',
  delay_ms: 'delayMs',
  retry_after: 'retryAfter',
  cut_after_deltas: 'cutAfterDeltas',
  last_tool_result: 'lastToolResult',
  cache_read: 'cacheRead',
  cache_write: 'cacheWrite',
};

const SNAKE_CASE_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SNAKE_CASE_ALIASES).map(([snake, camel]) => [camel, snake]),
);

const SLASHED_REGEX = /^\/(.+)\/([dgimsuvy]*)$/;

/**
 * A test for one `match` pattern: a `/regex/` when written between slashes, else a substring.
 * Throws a SyntaxError for an invalid regular expression.
 */
export function patternMatcher(pattern: string): (subject: string) => boolean {
  const slashed = SLASHED_REGEX.exec(pattern);
  if (!slashed) return (subject) => subject.includes(pattern);
  // `g` and `y` would make test() remember where it stopped, so one call's match moves the next.
  const regex = new RegExp(slashed[1] ?? '', slashed[2]?.replace(/[gy]/g, ''));
  return (subject) => regex.test(subject);
}

/** Like `patternMatcher`, but a plain name must be the whole tool name. */
export function toolNameMatcher(pattern: string): (toolName: string) => boolean {
  return SLASHED_REGEX.test(pattern) ? patternMatcher(pattern) : (toolName) => toolName === pattern;
}

/** A strict object that also accepts the snake_case spelling of its fields. */
function scriptObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const validKeys = Object.keys(shape)
    .map((key) => (SNAKE_CASE_OF[key] ? `${key} (or ${SNAKE_CASE_OF[key]})` : key))
    .join(', ');
  const strict = z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `valid keys: ${validKeys}` : undefined),
  });
  return z.preprocess((value, context) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const renamed: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const camel = SNAKE_CASE_ALIASES[key];
      if (camel === undefined || !(camel in shape)) {
        renamed[key] = field;
      } else if (camel in value) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `"${key}" and "${camel}" are the same field`,
          params: { fix: 'keep one of them' },
        });
      } else {
        renamed[camel] = field;
      }
    }
    return renamed;
  }, strict);
}

const count = z.number().int().min(0);

const Pattern = z.string().superRefine((pattern, context) => {
  try {
    patternMatcher(pattern);
  } catch (error) {
    context.addIssue({
      code: 'custom',
      message: `invalid regular expression: ${(error as Error).message}`,
      params: { fix: 'write a substring, or a regular expression between slashes like /^fix/i' },
    });
  }
});

const ScriptToolCallSchema = scriptObject({
  name: z.string().min(1),
  input: z.looseObject({}),
  id: z.string().min(1).optional(),
});

const ScriptTurnSchema = scriptObject({
  text: z.string().optional(),
  toolCalls: z.array(ScriptToolCallSchema).min(1).optional(),
  usage: scriptObject({
    input: count.optional(),
    output: count.optional(),
    cacheRead: count.optional(),
    cacheWrite: count.optional(),
  }).optional(),
  delayMs: z.number().min(0).optional(),
  error: scriptObject({
    status: z.number().int().min(100).max(599).optional(),
    message: z.string().optional(),
    retryAfter: z.number().min(0).optional(),
    cutAfterDeltas: count.optional(),
  }).optional(),
  match: scriptObject({
    system: Pattern.optional(),
    prompt: Pattern.optional(),
    lastToolResult: Pattern.optional(),
    tools: z.array(Pattern).optional(),
    agent: Pattern.optional(),
  }).optional(),
}).superRefine((turn, context) => {
  if (turn.text === undefined && turn.toolCalls === undefined && turn.error === undefined) {
    context.addIssue({
      code: 'custom',
      message: 'a turn needs text, toolCalls or error',
      params: { fix: 'add text: "…" or toolCalls: [{ name, input }]' },
    });
  }
  if (turn.error?.cutAfterDeltas !== undefined && turn.text === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['error', 'cutAfterDeltas'],
      message: 'a cut stream needs text to cut',
      params: { fix: 'add text: "…" to this turn' },
    });
  }
});

const ScriptTurnsSchema: z.ZodType<ScriptTurn[]> = z.array(ScriptTurnSchema);

const ScriptFileSchema: z.ZodType<Script> = scriptObject({
  model: z.string().min(1).optional(),
  turns: z.array(ScriptTurnSchema).min(1),
});

/** The problem and fix a zod issue stands for, in a person's words. */
function describeIssue(issue: z.core.$ZodIssue): { problem: string; fix: string | undefined } {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    return {
      problem: `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}`,
      fix: issue.message,
    };
  }
  if (issue.code === 'custom') {
    const fix = issue.params?.fix;
    return { problem: issue.message, fix: typeof fix === 'string' ? fix : undefined };
  }
  return { problem: issue.message.replace(/^Invalid input: /, ''), fix: undefined };
}

/**
 * Checks turns given in code (`new ScriptedModel({ turns })`) against the same rules as a
 * script file, and returns them with snake_case fields renamed.
 */
export function validateTurns(turns: unknown): ScriptTurn[] {
  const result = ScriptTurnsSchema.safeParse(turns);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (!issue) throw result.error;
  const { problem, fix } = describeIssue(issue);
  throw new ConfigError(`ScriptedModel ${issue.path.reduce(joinPath, 'turns')}`, problem, fix);
}

/**
 * Parses a script's text: a list of turns, or `{ model?, turns }`. YAML or JSON (JSON is YAML).
 * @param file the file name used in error messages.
 */
export function parseScript(source: string, file: string): Script {
  // A valid JSON script needs no YAML parser; any mistake is located through YAML's nodes.
  if (extname(file) === '.json') {
    const parsed = parseJson(source);
    const value = Array.isArray(parsed) ? { turns: parsed } : parsed;
    const result = value === undefined ? undefined : ScriptFileSchema.safeParse(value);
    if (result?.success) return result.data;
  }
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(source, { lineCounter, prettyErrors: false });
  const at = (offset: number): string => {
    const { line, col } = lineCounter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const [syntaxError] = document.errors;
  if (syntaxError) {
    const language = extname(file) === '.json' ? 'JSON' : 'YAML';
    throw new ConfigError(
      at(syntaxError.pos[0]),
      syntaxError.message,
      `fix the ${language} syntax`,
    );
  }
  const value = expandAliases(document, file);
  const listed = Array.isArray(value);
  if (!listed && (typeof value !== 'object' || value === null)) {
    throw new ConfigError(
      at(startOf(document.contents) ?? 0),
      'a script is a list of turns, or a map with a turns list',
      'write turns like "- text: Hello" or "turns: [{ text: Hello }]"',
    );
  }
  const result = ScriptFileSchema.safeParse(listed ? { turns: value } : value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (!issue) throw result.error;
  // A top-level list stands in for `turns`, so its paths start one step lower.
  const segments = listed ? issue.path.slice(1) : issue.path;
  const located = locate(document.contents, segments, listed ? 'turns' : '', SNAKE_CASE_OF);
  const [unknownKey] = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const offset =
    (unknownKey === undefined ? undefined : keyOffset(located.node, unknownKey)) ?? located.offset;
  const { problem, fix } = describeIssue(issue);
  throw new ConfigError(at(offset), located.path ? `${located.path}: ${problem}` : problem, fix);
}

function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    return undefined;
  }
}

const SCRIPT_EXTENSIONS = ['.yaml', '.yml', '.json'];
/** 64 MiB: a script of scripted turns is far smaller; a bigger file is not one. */
const SCRIPT_MAX_BYTES = 64 * 1024 * 1024;

/** Reads a script file with its optional model name. */
export async function readScript(path: string): Promise<Script> {
  if (!SCRIPT_EXTENSIONS.includes(extname(path))) {
    throw new ConfigError(
      path,
      'a script file must be YAML or JSON',
      `name it with one of ${SCRIPT_EXTENSIONS.join(', ')}`,
    );
  }
  let source: string;
  try {
    source = await readRegularText(path, { maxBytes: SCRIPT_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(path, error.problem, error.fix);
    throw new ConfigError(
      path,
      `cannot read the script: ${(error as Error).message}`,
      'check the file path after scripted:',
    );
  }
  return parseScript(source, path);
}

/** Reads the turns of a `.yaml`, `.yml` or `.json` script file. */
export async function loadScript(path: string): Promise<ScriptTurn[]> {
  return (await readScript(path)).turns;
}
