// The host side of the bundled `csv` workflow: reads the CSV named in its args (inside the
// caller's allowed directories) into rows before the run, writes the results CSV after it.

import { readFileSync, writeFileSync } from 'node:fs';
import { join, parse as parsePath } from 'node:path';
import { messageOf } from '../../core/error-message.js';
import { resolveAllowedPath } from '../../tools/allowed-path.js';
import type { WorkflowRunResult } from '../workflow-engine.js';
import type { StoredItem } from '../workflow-store.js';
import { parseCsv, toCsv } from './csv-file.js';

export interface CsvArgs {
  csv_path: string;
  instruction: string;
  id_column?: string;
  output_csv_path?: string;
  output_schema?: Record<string, unknown>;
  agent_type?: string;
  model?: string;
}

export interface CsvRow {
  id: string;
  values: Record<string, string>;
}

/** The args the script gets: the given ones, with `rows` read from `csv_path`. */
export type CsvRunArgs = CsvArgs & { rows: CsvRow[]; output_csv_path: string };

export async function csvRunArgs(
  given: unknown,
  scope: { cwd: string; allowedDirs: readonly string[] },
): Promise<CsvRunArgs> {
  const args = (given ?? {}) as Partial<CsvArgs>;
  if (typeof args.csv_path !== 'string' || typeof args.instruction !== 'string') {
    throw new Error('the csv workflow needs args.csv_path and args.instruction');
  }
  const input = await inside(args.csv_path, scope, 'args.csv_path');
  let table: ReturnType<typeof parseCsv>;
  try {
    table = parseCsv(readFileSync(input, 'utf8'));
  } catch (error) {
    throw new Error(`${args.csv_path}: ${messageOf(error)}`);
  }
  if (args.id_column !== undefined && !table.header.includes(args.id_column)) {
    throw new Error(`args.id_column: "${args.id_column}" is not a column of ${args.csv_path}`);
  }
  const seen = new Map<string, number>();
  const rows = table.rows.map((fields, index) => {
    const values = Object.fromEntries(table.header.map((name, column) => [name, fields[column]!]));
    const base = args.id_column === undefined ? `row-${index + 1}` : values[args.id_column]!;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { id: count === 1 ? base : `${base}-${count}`, values };
  });
  const named = parsePath(input);
  const output = args.output_csv_path
    ? await inside(args.output_csv_path, scope, 'args.output_csv_path')
    : join(named.dir, `${named.name}.results.csv`);
  return {
    ...args,
    csv_path: args.csv_path,
    instruction: args.instruction,
    rows,
    output_csv_path: output,
  };
}

/**
 * Writes one line per row: its columns, then item_id, status, result_json, last_error, from the
 * run's journal (so a paused run's finished rows are there too).
 */
export function writeCsvResults(
  args: CsvRunArgs,
  run: WorkflowRunResult,
  journal: readonly StoredItem[],
): string {
  const header = [
    ...Object.keys(args.rows[0]?.values ?? {}),
    'item_id',
    'status',
    'result_json',
    'last_error',
  ];
  const lines = args.rows.map((row) => {
    const item = journal.find((candidate) => candidate.label === row.id);
    const status = item?.status ?? (run.status === 'paused' ? 'paused' : 'not_run');
    return [...Object.values(row.values), row.id, status, item?.result ?? '', item?.error ?? ''];
  });
  writeFileSync(args.output_csv_path, toCsv(header, lines));
  return args.output_csv_path;
}

/** `path` resolved (symlinks followed) inside the caller's allowed directories, or an Error. */
async function inside(
  path: string,
  scope: { cwd: string; allowedDirs: readonly string[] },
  field: string,
): Promise<string> {
  const resolved = await resolveAllowedPath(path, {
    cwd: scope.cwd,
    allowedDirs: [...scope.allowedDirs],
  });
  if (!resolved.ok) throw new Error(`${field}: ${resolved.message}`);
  return resolved.path;
}
