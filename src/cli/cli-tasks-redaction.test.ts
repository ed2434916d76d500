// A background task's result holds a secret (an API key from the environment, an `sk-…` token):
// neither reaches the bytes of tasks.db (its WAL included) nor `warren tasks --json`, as
// neither reaches the transcripts. Runs the built CLI (`npm test` builds first).
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runWarren } from '../testing/cli-process.js';
import { makeTempDir } from '../testing/temp-dir.js';

const ENV_SECRET = 'svc-9f8e7d6c5b4a3210-secret';
const PROVIDER_TOKEN = 'sk-proj-AbCdEf0123456789XyZwVuTs';

let project: string;
let sessions: string;

beforeEach(async () => {
  project = await makeTempDir('warren-tasks-redaction-');
  sessions = join(project, '.sessions');
});

const warren = (args: string[]) =>
  runWarren([...args, '--session-dir', sessions], {
    cwd: project,
    env: { HOME: project, EXAMPLE_SERVICE_API_KEY: ENV_SECRET },
  });

const SCRIPT = `
turns:
  - match: { prompt: START }
    tool_calls:
      - name: Agent
        input: { description: "find the key", prompt: "BG find the key", run_in_background: true }
  - match: { prompt: "BG find" }
    text: "Found ${ENV_SECRET} and ${PROVIDER_TOKEN} in .env"
  - match: { last_tool_result: '"task_id"' }
    text: "Waiting for it."
  - match: { prompt: "<task-notification>" }
    text: "FINAL: done"
`;

/** Every file of the task store (tasks.db and its -wal, -shm), wherever the session put it. */
function taskStoreBytes(dir: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && entry.name.startsWith('tasks.db'),
  );
  expect(files.length).toBeGreaterThan(0);
  return files.map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1')).join('');
}

describe('the task store keeps secrets out', () => {
  it('redacts a secret in a background result from tasks.db and from warren tasks --json', async () => {
    await writeFile(join(project, 'bg.yaml'), SCRIPT);
    const run = await warren(['-p', 'START', '--model', 'scripted:bg.yaml']);
    expect(run.code).toBe(0);

    const bytes = taskStoreBytes(sessions);
    expect(bytes).not.toContain(ENV_SECRET);
    expect(bytes).not.toContain(PROVIDER_TOKEN);

    const listing = await warren(['tasks', '--json']);
    expect(listing.code).toBe(0);
    expect(listing.stdout).not.toContain(ENV_SECRET);
    expect(listing.stdout).not.toContain(PROVIDER_TOKEN);
    expect(JSON.parse(listing.stdout).tasks[0].result).toBe(
      'Found [REDACTED] and [REDACTED] in .env',
    );
  });
});
