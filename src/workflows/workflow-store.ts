// A workflow run's durable record, in the session's task store file (tasks.db, its own tables):
// the run (script, args, status, why it paused, its budget) and one row per agent() call, keyed
// by what it asked and its occurrence among identical calls, written before it is reported.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { ConfigError } from '../core/config-error.js';
import type { WorkflowEndStatus } from '../core/workflow-events.js';
import { openDatabase } from '../tasks/task-store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS workflow_runs (
  run_id TEXT PRIMARY KEY,
  task_id TEXT,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  filename TEXT NOT NULL,
  source TEXT NOT NULL,
  args TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  budget_tokens INTEGER,
  spent_tokens INTEGER NOT NULL DEFAULT 0,
  result TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS workflow_items (
  run_id TEXT NOT NULL,
  item_key TEXT NOT NULL,
  occurrence INTEGER NOT NULL,
  label TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT,
  error TEXT,
  agent_id TEXT,
  tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL,
  attempts INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER,
  ended_at INTEGER,
  PRIMARY KEY (run_id, item_key, occurrence)
);
`;

/** `running` is only ever seen after a crash; `paused` was stopped by the breaker or the budget. */
export type ItemStatus = 'running' | 'completed' | 'failed' | 'no_progress' | 'paused';
export type RunStatus = 'running' | WorkflowEndStatus;

export interface StoredItem {
  key: string;
  occurrence: number;
  label: string;
  status: ItemStatus;
  /** The JSON the script got back. */
  result: string | null;
  error: string | null;
  agentId: string | null;
  tokens: number;
  costUsd: number | null;
  attempts: number;
}

export interface StoredRun {
  runId: string;
  taskId: string | null;
  name: string;
  description: string;
  filename: string;
  source: string;
  args: string;
  status: RunStatus;
  reason: string | null;
  budgetTokens: number | null;
  spentTokens: number;
  result: string | null;
  createdAt: number;
  updatedAt: number;
}

export class WorkflowStore {
  readonly #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** The store in `path` (a session's tasks.db, `:memory:` for none), made if missing. */
  static open(path: string): WorkflowStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = openDatabase(path, false);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(SCHEMA);
    return new WorkflowStore(db);
  }

  /** The store in `path` opened read-only, or undefined when that session has no workflow runs. */
  static read(path: string): WorkflowStore | undefined {
    if (!existsSync(path)) return undefined;
    const db = openDatabase(path, true);
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'workflow_runs'")
      .get();
    if (!table) {
      db.close();
      return undefined;
    }
    return new WorkflowStore(db);
  }

  close(): void {
    this.#db.close();
  }

  createRun(
    run: Omit<StoredRun, 'createdAt' | 'updatedAt' | 'spentTokens' | 'result' | 'reason'>,
  ): void {
    const now = Date.now();
    this.#db
      .prepare(
        `INSERT INTO workflow_runs (run_id, task_id, name, description, filename, source, args, status, budget_tokens, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        run.runId,
        run.taskId,
        run.name,
        run.description,
        run.filename,
        run.source,
        run.args,
        run.status,
        run.budgetTokens,
        now,
        now,
      );
  }

  /** Sets the given fields of a run (the script on `--script`, the budget on `--budget`). */
  updateRun(
    runId: string,
    fields: Partial<
      Pick<
        StoredRun,
        | 'status'
        | 'reason'
        | 'spentTokens'
        | 'result'
        | 'source'
        | 'filename'
        | 'budgetTokens'
        | 'taskId'
      >
    >,
  ): void {
    const columns: Record<string, SQLInputValue> = {};
    if (fields.status !== undefined) columns.status = fields.status;
    if (fields.reason !== undefined) columns.reason = fields.reason;
    if (fields.spentTokens !== undefined) columns.spent_tokens = fields.spentTokens;
    if (fields.result !== undefined) columns.result = fields.result;
    if (fields.source !== undefined) columns.source = fields.source;
    if (fields.filename !== undefined) columns.filename = fields.filename;
    if (fields.budgetTokens !== undefined) columns.budget_tokens = fields.budgetTokens;
    if (fields.taskId !== undefined) columns.task_id = fields.taskId;
    const names = Object.keys(columns);
    this.#db
      .prepare(
        `UPDATE workflow_runs SET ${names.map((name) => `${name} = ?`).join(', ')}, updated_at = ? WHERE run_id = ?`,
      )
      .run(...names.map((name) => columns[name]!), Date.now(), runId);
  }

  run(runId: string): StoredRun | undefined {
    const row = this.#db.prepare('SELECT * FROM workflow_runs WHERE run_id = ?').get(runId);
    return row ? runOf(row) : undefined;
  }

  runs(): StoredRun[] {
    return this.#db.prepare('SELECT * FROM workflow_runs ORDER BY created_at').all().map(runOf);
  }

  items(runId: string): StoredItem[] {
    return this.#db
      .prepare(
        'SELECT * FROM workflow_items WHERE run_id = ? ORDER BY started_at, item_key, occurrence',
      )
      .all(runId)
      .map(itemOf);
  }

  /** An item is about to run: a new row, or its attempt counted on the old one. */
  startItem(
    runId: string,
    item: { key: string; occurrence: number; label: string; agentId: string | null },
  ): void {
    this.#db
      .prepare(
        `INSERT INTO workflow_items (run_id, item_key, occurrence, label, status, agent_id, attempts, started_at)
         VALUES (?, ?, ?, ?, 'running', ?, 1, ?)
         ON CONFLICT (run_id, item_key, occurrence) DO UPDATE SET
           status = 'running', label = excluded.label, agent_id = excluded.agent_id,
           attempts = attempts + 1, started_at = excluded.started_at, ended_at = NULL, error = NULL`,
      )
      .run(runId, item.key, item.occurrence, item.label, item.agentId, Date.now());
  }

  /** Its agent is known (it may differ from the one planned when it was started). */
  setItemAgent(runId: string, key: string, occurrence: number, agentId: string): void {
    this.#db
      .prepare(
        'UPDATE workflow_items SET agent_id = ? WHERE run_id = ? AND item_key = ? AND occurrence = ?',
      )
      .run(agentId, runId, key, occurrence);
  }

  endItem(
    runId: string,
    key: string,
    occurrence: number,
    end: {
      status: ItemStatus;
      result: string | null;
      error: string | null;
      tokens: number;
      costUsd: number | null;
    },
  ): void {
    this.#db
      .prepare(
        `UPDATE workflow_items SET status = ?, result = ?, error = ?, tokens = tokens + ?, cost_usd = ?, ended_at = ?
         WHERE run_id = ? AND item_key = ? AND occurrence = ?`,
      )
      .run(
        end.status,
        end.result,
        end.error,
        end.tokens,
        end.costUsd,
        Date.now(),
        runId,
        key,
        occurrence,
      );
  }
}

/** The run `runId` in a store, or a ConfigError naming what to pass. */
export function requireRun(store: WorkflowStore | undefined, runId: string): StoredRun {
  const run = store?.run(runId);
  if (!run) {
    throw new ConfigError(
      runId,
      'no such workflow run in this session',
      'see `warren workflows` for the runs and their session',
    );
  }
  return run;
}

type Row = Record<string, SQLInputValue>;

function runOf(row: Row): StoredRun {
  return {
    runId: String(row.run_id),
    taskId: row.task_id === null ? null : String(row.task_id),
    name: String(row.name),
    description: String(row.description),
    filename: String(row.filename),
    source: String(row.source),
    args: String(row.args),
    status: String(row.status) as RunStatus,
    reason: row.reason === null ? null : String(row.reason),
    budgetTokens: row.budget_tokens === null ? null : Number(row.budget_tokens),
    spentTokens: Number(row.spent_tokens),
    result: row.result === null ? null : String(row.result),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function itemOf(row: Row): StoredItem {
  return {
    key: String(row.item_key),
    occurrence: Number(row.occurrence),
    label: String(row.label),
    status: String(row.status) as ItemStatus,
    result: row.result === null ? null : String(row.result),
    error: row.error === null ? null : String(row.error),
    agentId: row.agent_id === null ? null : String(row.agent_id),
    tokens: Number(row.tokens),
    costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
    attempts: Number(row.attempts),
  };
}

/** A run of the bundled csv workflow, which writes a results file. */
export function isCsvRun(run: StoredRun | undefined): boolean {
  return run?.name === 'csv' && run.filename.startsWith('(bundled)');
}
