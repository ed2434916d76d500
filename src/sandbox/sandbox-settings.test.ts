// The `sandbox` section of the settings: the user's file and --settings may loosen the sandbox,
// a project's file may not, and a wrong field is one line naming the file and the field.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import { commandEnv } from './command-env.js';
import { loadSandboxSettings } from './sandbox-settings.js';

const home = useTempDir('warren-sandbox-home-');
const project = useTempDir('warren-sandbox-project-');

async function settingsIn(dir: string, value: unknown): Promise<string> {
  await mkdir(path.join(dir, '.warren'), { recursive: true });
  const file = path.join(dir, '.warren', 'settings.json');
  await writeFile(file, JSON.stringify(value));
  return file;
}

const sources = () => ({ homeDir: home(), projectDir: project() });

describe('the sandbox settings', () => {
  it('are on, with no network, when nothing says otherwise', async () => {
    expect(await loadSandboxSettings(sources())).toEqual({
      enabled: true,
      options: {},
      warnings: [],
    });
  });

  it("take the user's file, then --settings, then --no-sandbox", async () => {
    await settingsIn(home(), {
      sandbox: { network: 'allow', passEnv: ['GITHUB_TOKEN'], writable: ['~/.npm', '/opt/cache'] },
    });
    const flagFile = path.join(home(), 'flag.json');
    await writeFile(flagFile, JSON.stringify({ sandbox: { enabled: false } }));
    expect(await loadSandboxSettings(sources())).toMatchObject({
      enabled: true,
      options: {
        network: 'allow',
        passEnv: ['GITHUB_TOKEN'],
        writable: [path.join(home(), '.npm'), '/opt/cache'],
      },
    });
    expect(await loadSandboxSettings({ ...sources(), settingsFile: flagFile })).toMatchObject({
      enabled: false,
    });
    expect(await loadSandboxSettings({ ...sources(), noSandbox: true })).toMatchObject({
      enabled: false,
    });
  });

  it("ignore a project's sandbox section, with a warning naming the file", async () => {
    const file = await settingsIn(project(), { sandbox: { enabled: false, network: 'allow' } });
    const settings = await loadSandboxSettings(sources());
    expect(settings).toMatchObject({ enabled: true, options: {} });
    expect(settings.warnings).toEqual([
      `${file}: its "sandbox" section was ignored: only ~/.warren/settings.json, --settings and --no-sandbox change the sandbox`,
    ]);
  });

  it('refuse a wrong field with the file, the field and the shape', async () => {
    const file = await settingsIn(home(), { sandbox: { network: 'some' } });
    await expect(loadSandboxSettings(sources())).rejects.toThrow(
      `${file} sandbox.network: Invalid option: expected one of "none"|"allow" (the section looks like "sandbox": { "enabled": true, "network": "none", "passEnv": ["GITHUB_TOKEN"], "writable": ["~/.npm"] })`,
    );
  });
});

describe("a command's environment", () => {
  it('leaves out the provider keys and anything named like a credential, and passes named ones through', () => {
    const env = commandEnv(
      {
        PATH: '/usr/bin',
        HOME: '/home/me',
        ANTHROPIC_API_KEY: 'a',
        OPENAI_API_KEY: 'b',
        WARREN_API_KEY: 'c',
        GITHUB_TOKEN: 'd',
        AWS_SECRET_ACCESS_KEY: 'e',
        OTEL_EXPORTER_OTLP_HEADERS: 'f',
        DB_PASSWORD: 'g',
        MY_MODEL_SETTING: 'h',
      },
      { passEnv: ['GITHUB_TOKEN'], withhold: ['MY_MODEL_SETTING'] },
      { WARREN_TASK_ID: 'task_1' },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      GITHUB_TOKEN: 'd',
      WARREN_TASK_ID: 'task_1',
    });
  });
});
