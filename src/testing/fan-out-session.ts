// Test fixture: a finished session of the scripted fan-out (fixtures/fan-out.yaml), five
// sub-agents and a grandchild, run by the real `warren` process, with a price for its model.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homeEnv, runWarren } from './cli-process.js';
import { makeTempDir } from './temp-dir.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface FanOutSession {
  home: string;
  project: string;
  sessionDir: string;
  sessionId: string;
  result: { session_id: string; agents: Array<Record<string, unknown>> } & Record<string, unknown>;
}

export async function runFanOutSession(): Promise<FanOutSession> {
  const home = await makeTempDir('warren-fan-out-');
  const project = join(home, 'project');
  const sessionDir = join(home, 'sessions');
  await mkdir(join(home, '.warren'), { recursive: true });
  await mkdir(project);
  await copyFile(join(FIXTURES, 'fan-out-prices.json'), join(home, '.warren', 'prices.json'));
  await writeFile(join(project, 'notes.txt'), 'the answer is 42\n');
  const run = await runWarren(
    [
      '-p',
      'Review the code base.',
      '--model',
      `scripted:${join(FIXTURES, 'fan-out.yaml')}`,
      '--cwd',
      project,
      '--session-dir',
      sessionDir,
      '--output-format',
      'json',
    ],
    { env: homeEnv(home) },
  );
  if (run.code !== 0) throw new Error(`the fan-out run failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout);
  return { home, project, sessionDir, sessionId: result.session_id, result };
}
