// A project for the protocol-server tests: agent definitions and a scripted model whose turns
// make a lead agent start two helpers (one in the background), ask to write a file, run slowly
// (to be cancelled) and return a structured value; and the served `warren` processes over it.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WARREN_BIN } from './cli-process.js';
import { makeTempDir } from './temp-dir.js';

export interface ServedProject {
  dir: string;
  home: string;
  sessionDir: string;
  /** The environment of the served process (and of no one else). */
  env: Record<string, string>;
  /** The flags every served process gets: the scripted model, the session folder. */
  flags: string[];
}

const DEFINITIONS: Record<string, string[]> = {
  lead: ['description: Plans and delegates to helpers.'],
  helper: ['description: Does one part of a task.'],
  writer: ['description: Writes files.'],
  slow: ['description: Takes its time.'],
  pause: ['description: Pauses a while, then answers.'],
  counter: [
    'description: Counts files.',
    'outputSchema:',
    '  type: object',
    '  properties:',
    '    count: { type: integer }',
    '  required: [count]',
  ],
};

/** The scripted model's turns; `file` is where `writer` is asked to write. */
function turns(file: (name: string) => string) {
  return [
    {
      match: { agent: '/^main$/', prompt: 'PLAN' },
      tool_calls: [
        {
          name: 'Agent',
          input: { description: 'front', prompt: 'FG part', subagent_type: 'helper' },
        },
        {
          name: 'Agent',
          input: {
            description: 'back',
            prompt: 'BG part',
            subagent_type: 'helper',
            run_in_background: true,
          },
        },
      ],
    },
    { match: { prompt: 'FG part' }, text: 'front done' },
    { match: { prompt: 'BG part' }, delay_ms: 400, text: 'back done' },
    { match: { agent: '/^main$/', prompt: 'PLAN' }, text: 'lead waiting' },
    { match: { agent: '/^main$/', prompt: '<task-notification>' }, text: 'lead done' },
    ...['YES', 'NO', 'ASKLESS'].flatMap((answer) => [
      {
        match: { prompt: `WRITE ${answer}` },
        tool_calls: [{ name: 'Write', input: { file_path: file(answer), content: answer } }],
      },
      { match: { prompt: `WRITE ${answer}` }, text: `writer finished ${answer}` },
    ]),
    { match: { prompt: 'SLOW' }, delay_ms: 60_000, text: 'too late' },
    { match: { prompt: 'PAUSE' }, delay_ms: 4000, text: 'paused done' },
    // What a task's run is told when a restarted server goes on with it.
    // (slow enough for a test to see it working first).
    {
      match: { prompt: 'server running this task restarted' },
      delay_ms: 2000,
      text: 'resumed and done',
    },
    { match: { prompt: 'COUNT' }, tool_calls: [{ name: 'StructuredOutput', input: { count: 3 } }] },
    { match: { prompt: 'COUNT' }, text: 'counted' },
  ];
}

export async function servedProject(): Promise<ServedProject> {
  const dir = await makeTempDir('warren-served-');
  const home = await makeTempDir('warren-served-home-');
  await mkdir(join(dir, '.warren/agents'), { recursive: true });
  for (const [name, lines] of Object.entries(DEFINITIONS)) {
    await writeFile(
      join(dir, '.warren/agents', `${name}.md`),
      ['---', `name: ${name}`, ...lines, '---', `You are ${name}.`].join('\n'),
    );
  }
  const script = join(dir, 'script.json');
  await writeFile(script, JSON.stringify({ turns: turns((name) => join(dir, `${name}.txt`)) }));
  const sessionDir = join(home, 'sessions');
  return {
    dir,
    home,
    sessionDir,
    env: { HOME: home, WARREN_HOME: join(home, '.warren') },
    flags: ['--model', `scripted:${script}`, '--session-dir', sessionDir],
  };
}

export interface ServingWarren {
  /** `http://127.0.0.1:<port>`, from the line the server prints on stderr. */
  url: string;
  stderr: () => string;
  stop(): Promise<number | null>;
  /** Kills it outright (SIGKILL), as a crash or a machine going down would. */
  crash(): Promise<number | null>;
}

/** Starts `warren <args>` serving HTTP and waits for the line that says where. */
export function serveWarren(
  project: ServedProject,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ServingWarren> {
  const child = spawn(process.execPath, [WARREN_BIN, ...args, ...project.flags], {
    cwd: project.dir,
    env: { PATH: process.env.PATH, ...project.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const url = /(http:\/\/[^\s/]+)/.exec(stderr)?.[1];
      if (url) {
        resolve({
          url,
          stderr: () => stderr,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
          crash: async () => {
            child.kill('SIGKILL');
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(`warren exited ${code} before serving: ${stderr}`)));
  });
}

/**
 * A caller's definition of a served warren as a `kind: remote` agent named `far`, in Gemini
 * CLI's own format (`folder` is `.gemini/agents` or `.warren/agents`), its bearer token as
 * written (a value, or `$VAR`).
 */
export async function writeRemoteDefinition(
  caller: string,
  folder: string,
  serverUrl: string,
  token: string,
): Promise<void> {
  await mkdir(join(caller, folder), { recursive: true });
  await writeFile(
    join(caller, folder, 'far.md'),
    [
      '---',
      'kind: remote',
      'name: far',
      `agent_card_url: ${serverUrl}/.well-known/agent-card.json`,
      'auth:',
      '  type: http',
      '  scheme: Bearer',
      `  token: ${token}`,
      '---',
      '',
    ].join('\n'),
  );
}
