// The durable record of a session's background tasks: one SQLite row per task (node:sqlite, WAL)
// in the session folder, written on every state change, never per stream chunk (what a task is,
// how far it got, how it ended, whether its owner was told), and one per message to a running agent.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { ConfigError } from '../core/config-error.js';
import { messageOf } from '../core/error-message.js';
import type { AgentRef } from '../core/events.js';
import type { TaskKind, TaskOutcome, TaskProgress, TaskRecord, TaskStatus } from '../core/tasks.js';
import { TaskRedaction } from './task-redaction.js';
import { addMissingColumns } from './task-store-columns.js';

/** Bumped when the table changes shape; an older warren refuses a newer file. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  agent_id TEXT,
  owner_id TEXT NOT NULL,
  owner_parent_id TEXT,
  owner_depth INTEGER NOT NULL,
  agent_type TEXT,
  name TEXT,
  description TEXT NOT NULL,
  status TEXT NOT NULL,
  agent_status TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  ended_at INTEGER,
  turns INTEGER NOT NULL DEFAULT 0,
  tool_calls INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0,
  last_activity_at INTEGER,
  last_tool TEXT,
  blocked_on TEXT,
  result TEXT,
  result_path TEXT,
  error TEXT,
  usage TEXT,
  cost_usd REAL,
  notified_at INTEGER,
  spec TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 1,
  pid INTEGER
);
CREATE INDEX IF NOT EXISTS tasks_by_owner ON tasks (owner_id, notified_at);
CREATE TABLE IF NOT EXISTS messages (
  message_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  task_id TEXT,
  text TEXT NOT NULL,
  sent_at INTEGER NOT NULL,
  read_at INTEGER
);
CREATE INDEX IF NOT EXISTS messages_by_task ON messages (task_id, read_at);
`;

/** A message (SendMessage) for a running agent: `text` is the block it reads. */
export interface StoredMessage {
  messageId: string;
  /** The agent it is for, and the task that ran that agent when it was sent (null: none). */
  agentId: string;
  taskId: string | null;
  text: string;
  sentAt: number;
  /** When it was in the conversation of the agent (or of an ancestor it went up to). */
  readAt: number | null;
}

type Row = Record<string, SQLInputValue>;

export interface TaskStoreOptions {
  /** Whose secret-looking variables are redacted; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export class TaskStore {
  /** Where the rows are; `:memory:` for a run without a session folder. */
  readonly path: string;
  #db: DatabaseSync | undefined;
  readonly #statements = new Map<string, StatementSync>();
  /** Not applied to `spec`: it is what a restart runs, and must stay what the agent asked for. */
  readonly #redact: TaskRedaction;

  private constructor(path: string, db: DatabaseSync | undefined, env: NodeJS.ProcessEnv) {
    this.path = path;
    this.#db = db;
    this.#redact = new TaskRedaction(env);
  }

  /**
   * The store at `path`; `:memory:` keeps nothing. The file (and its folder) is made with the
   * first task: a session without background work gets none, and start-up pays nothing.
   */
  static open(path: string, options: TaskStoreOptions = {}): TaskStore {
    const store = new TaskStore(path, undefined, options.env ?? process.env);
    if (path !== ':memory:' && existsSync(path)) store.#open();
    return store;
  }

  /** Opens an existing store to read it (`warren tasks`); a missing file is a ConfigError. */
  static read(path: string, options: TaskStoreOptions = {}): TaskStore {
    const db = openDatabase(path, true);
    checkVersion(db, path);
    return new TaskStore(path, db, options.env ?? process.env);
  }

  #open(): DatabaseSync {
    if (this.#db) return this.#db;
    if (this.path !== ':memory:') mkdirSync(dirname(this.path), { recursive: true });
    const db = openDatabase(this.path, false);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      // With WAL, NORMAL survives a killed process (the OS has every commit); only a power
      // cut may lose the last ones. FULL would fsync on every state change of every task.
      db.exec('PRAGMA synchronous = NORMAL');
      db.exec('PRAGMA busy_timeout = 5000');
      checkVersion(db, this.path);
      db.exec(SCHEMA);
      addMissingColumns(db);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    } catch (error) {
      db.close();
      if (ConfigError.isInstance(error)) throw error;
      throw notAStore(this.path, error);
    }
    this.#db = db;
    return db;
  }

  insert(record: TaskRecord): void {
    this.#run(
      `INSERT INTO tasks (task_id, kind, agent_id, owner_id, owner_parent_id, owner_depth,
        agent_type, name, description, status, created_at, spec, attempt)
       VALUES ($taskId, $kind, $agentId, $ownerId, $ownerParentId, $ownerDepth, $agentType,
        $name, $description, $status, $createdAt, $spec, $attempt)`,
      {
        taskId: record.taskId,
        kind: record.kind,
        agentId: record.agentId,
        ownerId: record.owner.agentId,
        ownerParentId: record.owner.parentId,
        ownerDepth: record.owner.depth,
        agentType: record.agentType,
        name: record.name,
        description: this.#redact.text(record.description),
        status: record.status,
        createdAt: record.createdAt,
        spec: JSON.stringify(record.spec ?? null),
        attempt: record.attempt,
      },
    );
  }

  markRunning(taskId: string, at: number, pid: number | null): void {
    this.#run(
      `UPDATE tasks SET status = 'running', started_at = $at, last_activity_at = $at, pid = $pid
       WHERE task_id = $taskId`,
      { taskId, at, pid },
    );
  }

  saveProgress(taskId: string, progress: TaskProgress): void {
    this.#run(
      `UPDATE tasks SET turns = $turns, tool_calls = $toolCalls, tokens = $tokens,
        last_activity_at = $lastActivityAt, last_tool = $lastToolName, blocked_on = $blockedOn
       WHERE task_id = $taskId`,
      { taskId, ...progress, blockedOn: progress.blockedOn ?? null },
    );
  }

  finish(taskId: string, outcome: TaskOutcome, at: number): void {
    this.#run(
      `UPDATE tasks SET status = $status, agent_status = $agentStatus, ended_at = $at,
        result = $result, result_path = $resultPath, error = $error, usage = $usage,
        cost_usd = $costUsd WHERE task_id = $taskId`,
      {
        taskId,
        at,
        status: outcome.status,
        agentStatus: outcome.agentStatus,
        result: this.#redact.text(outcome.result),
        resultPath: outcome.resultPath,
        error: this.#redact.text(outcome.error ?? null),
        usage: outcome.usage ? JSON.stringify(outcome.usage) : null,
        costUsd: outcome.costUsd,
      },
    );
  }

  /** Records that the owners have these notifications; one statement for a whole batch. */
  markNotified(taskIds: readonly string[], at: number): void {
    this.#stamp(
      'UPDATE tasks SET notified_at = ? WHERE notified_at IS NULL AND task_id',
      taskIds,
      at,
    );
  }

  /** Records a message before its sender is told it was delivered. */
  insertMessage(message: Omit<StoredMessage, 'readAt'>): void {
    this.#run(
      `INSERT INTO messages (message_id, agent_id, task_id, text, sent_at)
       VALUES ($messageId, $agentId, $taskId, $text, $sentAt)`,
      { ...message, text: this.#redact.text(message.text) },
    );
  }

  /** Records that these messages are in an agent's conversation; one statement for a batch. */
  markRead(messageIds: readonly string[], at: number): void {
    this.#stamp(
      'UPDATE messages SET read_at = ? WHERE read_at IS NULL AND message_id',
      messageIds,
      at,
    );
  }

  /** The messages for a task's agent that it has not read, oldest first. */
  unreadMessages(taskId: string): StoredMessage[] {
    if (!this.#db) return [];
    return this.#statement(
      'SELECT * FROM messages WHERE task_id = ? AND read_at IS NULL ORDER BY sent_at, rowid',
    )
      .all(taskId)
      .map((row) => storedMessageOf(row as Row));
  }

  /** A task starts again after a crash: pending once more, its ending forgotten. */
  restart(taskId: string, owner: AgentRef): void {
    this.#run(
      `UPDATE tasks SET status = 'pending', attempt = attempt + 1, started_at = NULL,
        owner_id = $ownerId, owner_parent_id = $ownerParentId, owner_depth = $ownerDepth,
        ended_at = NULL, agent_status = NULL, result = NULL, error = NULL, notified_at = NULL
       WHERE task_id = $taskId`,
      {
        taskId,
        ownerId: owner.agentId,
        ownerParentId: owner.parentId,
        ownerDepth: owner.depth,
      },
    );
  }

  /** Hands tasks of agents that no longer run (a crashed main agent) to a new owner. */
  reown(taskIds: readonly string[], owner: AgentRef): void {
    for (const taskId of taskIds) {
      this.#run(
        `UPDATE tasks SET owner_id = $ownerId, owner_parent_id = $ownerParentId,
          owner_depth = $ownerDepth WHERE task_id = $taskId`,
        { taskId, ownerId: owner.agentId, ownerParentId: owner.parentId, ownerDepth: owner.depth },
      );
    }
  }

  get(taskId: string): TaskRecord | undefined {
    if (!this.#db) return undefined;
    const row = this.#statement('SELECT * FROM tasks WHERE task_id = ?').get(taskId);
    return row ? this.#redact.record(recordOf(row as Row)) : undefined;
  }

  /** Every task, oldest first. */
  list(): TaskRecord[] {
    if (!this.#db) return [];
    return this.#statement('SELECT * FROM tasks ORDER BY created_at, rowid')
      .all()
      .map((row) => this.#redact.record(recordOf(row as Row)));
  }

  close(): void {
    if (this.#db?.isOpen) this.#db.close();
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#open().prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** `update` (`… = ? WHERE … AND <id column>`) for the rows with these ids; none: no file made. */
  #stamp(update: string, ids: readonly string[], at: number): void {
    if (ids.length === 0) return;
    this.#open()
      .prepare(`${update} IN (${ids.map(() => '?').join(', ')})`)
      .run(at, ...ids);
  }

  #run(sql: string, params: Record<string, SQLInputValue>): void {
    const named: Record<string, SQLInputValue> = {};
    for (const [key, value] of Object.entries(params)) named[`$${key}`] = value ?? null;
    this.#statement(sql).run(named);
  }
}

export function openDatabase(path: string, readOnly: boolean): DatabaseSync {
  // Loaded on first use: a run without background work never loads SQLite at all. Workflows
  // (src/workflows/workflow-store.ts) open the same file for their own tables.
  const sqlite = process.getBuiltinModule?.('node:sqlite');
  if (!sqlite) {
    throw new ConfigError(
      'node:sqlite',
      `the task store needs Node 22.13 or newer, this is ${process.version}`,
      'upgrade Node',
    );
  }
  try {
    return new sqlite.DatabaseSync(path, { readOnly });
  } catch (error) {
    throw new ConfigError(
      path,
      `cannot open the task store: ${messageOf(error)}`,
      readOnly ? 'check the session id and --session-dir' : 'check that the folder is writable',
    );
  }
}

function notAStore(path: string, error: unknown): ConfigError {
  return new ConfigError(
    path,
    `is not a task store: ${messageOf(error)}`,
    'remove or rename it; warren makes a new one',
  );
}

function checkVersion(db: DatabaseSync, path: string): void {
  let version: number;
  try {
    version = Number((db.prepare('PRAGMA user_version').get() as Row).user_version);
  } catch (error) {
    throw notAStore(path, error);
  }
  if (version > SCHEMA_VERSION) {
    throw new ConfigError(
      path,
      `was written by a newer warren (task store version ${version}, this one reads ${SCHEMA_VERSION})`,
      'upgrade warren',
    );
  }
}

function recordOf(row: Row): TaskRecord {
  const text = (key: string) => (row[key] === null ? null : String(row[key]));
  const number = (key: string) => (row[key] === null ? null : Number(row[key]));
  return {
    taskId: String(row.task_id),
    kind: String(row.kind) as TaskKind,
    agentId: text('agent_id'),
    owner: {
      agentId: String(row.owner_id),
      parentId: text('owner_parent_id'),
      depth: Number(row.owner_depth),
    },
    agentType: text('agent_type'),
    name: text('name'),
    description: String(row.description),
    status: String(row.status) as TaskStatus,
    agentStatus: text('agent_status') as TaskRecord['agentStatus'],
    createdAt: Number(row.created_at),
    startedAt: number('started_at'),
    endedAt: number('ended_at'),
    progress: {
      turns: Number(row.turns),
      toolCalls: Number(row.tool_calls),
      tokens: Number(row.tokens),
      lastActivityAt: number('last_activity_at'),
      lastToolName: text('last_tool'),
      // Only while set (a store written before the column existed has none: not blocked).
      ...(typeof row.blocked_on === 'string' && { blockedOn: row.blocked_on }),
    },
    result: text('result'),
    resultPath: text('result_path'),
    error: text('error'),
    usage: row.usage === null ? null : JSON.parse(String(row.usage)),
    costUsd: number('cost_usd'),
    notifiedAt: number('notified_at'),
    spec: JSON.parse(String(row.spec)),
    attempt: Number(row.attempt),
    pid: number('pid'),
  };
}

function storedMessageOf(row: Row): StoredMessage {
  return {
    messageId: String(row.message_id),
    agentId: String(row.agent_id),
    taskId: row.task_id === null ? null : String(row.task_id),
    text: String(row.text),
    sentAt: Number(row.sent_at),
    readAt: row.read_at === null ? null : Number(row.read_at),
  };
}
