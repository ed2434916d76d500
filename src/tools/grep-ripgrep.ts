// The Grep engine that runs ripgrep (`rg`) when it is on PATH: fast, and the reference the
// JavaScript engine matches.
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { errorCode } from './allowed-path.js';
import type { ContentLine, EngineResult, GrepQuery } from './grep-engine.js';

let ripgrepLookup: Promise<boolean> | undefined;

/** Whether an executable `rg` is on PATH; looked up once per process. */
export function ripgrepAvailable(): Promise<boolean> {
  ripgrepLookup ??= (async () => {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      const found = await access(path.join(dir, 'rg'), constants.X_OK).then(
        () => true,
        () => false,
      );
      if (found) return true;
    }
    return false;
  })();
  return ripgrepLookup;
}

export async function searchWithRipgrep(query: GrepQuery): Promise<EngineResult> {
  const args = ['--no-config', '--hidden', '--with-filename', '--no-messages'];
  for (const dir of query.excludedDirs) args.push('--glob', `!${dir}`);
  if (query.glob !== undefined) args.push('--glob', query.glob);
  if (query.caseInsensitive) args.push('--ignore-case');
  if (query.mode === 'files_with_matches') args.push('--files-with-matches', '--null');
  if (query.mode === 'count') args.push('--count', '--null');
  if (query.mode === 'content') args.push('--json', '--sort', 'path');
  // ripgrep anchors globs such as "src/**" at its working directory, so it runs in the root.
  const cwd = query.rootIsFile ? path.dirname(query.root) : query.root;
  args.push('--regexp', query.pattern, '--', query.rootIsFile ? query.root : '.');
  const absolute = (file: string) => path.resolve(cwd, file);

  const child = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal: query.signal });
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) =>
      errorCode(error) === 'ABORT_ERR' ? resolve(null) : reject(error),
    );
    child.on('close', (code) => resolve(code));
  });

  const output: string[] = [];
  const lines: ContentLine[] = [];
  if (query.mode === 'content') {
    for await (const jsonLine of createInterface({ input: child.stdout })) {
      const match = parseRipgrepMatch(jsonLine);
      if (match === undefined) continue;
      lines.push({ ...match, file: absolute(match.file) });
      if (lines.length > query.limit) {
        child.kill();
        break;
      }
    }
  } else {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
  }
  const code = await exited;
  // Exit 1 means no match; 2 means an error, which only matters when nothing was found at all.
  const text = output.join('');
  if (code === 2 && text === '' && lines.length === 0) {
    return { error: `Grep failed: ${stderr.join('').trim() || 'ripgrep exited with status 2'}` };
  }
  query.signal.throwIfAborted();

  if (query.mode === 'content') return { mode: 'content', lines };
  const records = text
    .split(query.mode === 'count' ? '\n' : '\0')
    .filter((record) => record !== '');
  if (query.mode === 'files_with_matches') {
    return { mode: 'files_with_matches', files: records.map(absolute) };
  }
  const counts = records.map((record) => {
    const [file = '', count = '0'] = record.split('\0');
    return { file: absolute(file), count: Number(count) };
  });
  return { mode: 'count', counts };
}

function parseRipgrepMatch(jsonLine: string): ContentLine | undefined {
  const message = JSON.parse(jsonLine) as {
    type: string;
    data: { path?: RipgrepText; lines?: RipgrepText; line_number?: number };
  };
  if (message.type !== 'match') return undefined;
  return {
    file: ripgrepText(message.data.path),
    line: message.data.line_number ?? 0,
    text: ripgrepText(message.data.lines).replace(/\r?\n$/, ''),
  };
}

/** ripgrep sends text that is not valid UTF-8 as base64 `bytes`. */
type RipgrepText = { text: string } | { bytes: string };

function ripgrepText(value: RipgrepText | undefined): string {
  if (value === undefined) return '';
  return 'text' in value ? value.text : Buffer.from(value.bytes, 'base64').toString('utf8');
}
