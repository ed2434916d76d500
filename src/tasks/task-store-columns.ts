// Columns of the task store added after its first version. An older warren ignores them, so the
// schema version stays; a store made before one gets it when it is opened for writing.
import type { DatabaseSync } from 'node:sqlite';

export function addMissingColumns(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(tasks)').all() as Array<{ name: unknown }>;
  if (!columns.some((column) => column.name === 'blocked_on')) {
    db.exec('ALTER TABLE tasks ADD COLUMN blocked_on TEXT');
  }
}
