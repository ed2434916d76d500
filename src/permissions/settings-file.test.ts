import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigError } from '../core/config-error.js';
import { configErrorOf } from '../testing/caught-errors.js';
import { useTempDir } from '../testing/temp-dir.js';
import { loadSettings } from './settings-file.js';

const root = useTempDir('warren-settings-');
let projectDir: string;
let homeDir: string;

beforeEach(() => {
  projectDir = path.join(root(), 'project');
  homeDir = path.join(root(), 'home');
});

async function writeSettings(dir: string, text: string): Promise<string> {
  await mkdir(path.join(dir, '.warren'), { recursive: true });
  const file = path.join(dir, '.warren', 'settings.json');
  await writeFile(file, text);
  return file;
}

function loadError(): Promise<ConfigError> {
  return configErrorOf(loadSettings({ projectDir, homeDir }));
}

/** Writes `text` as the settings file of `dir` (the project); the file, and how loading refuses it. */
async function refused(text: string, dir = projectDir) {
  const file = await writeSettings(dir, text);
  return { file, error: await loadError() };
}

describe('loadSettings', () => {
  it('finds no rules and no mode when there is no settings file', async () => {
    expect(await loadSettings({ projectDir, homeDir })).toEqual({
      allow: [],
      deny: [],
      defaultMode: undefined,
      hooks: [],
    });
  });

  it('reads rules and the default mode, each rule labelled with its file, line and field', async () => {
    const file = await writeSettings(
      projectDir,
      `{
  "permissions": {
    "allow": ["Read", "Bash(npm test:*)"],
    "deny": [
      "Bash(git push:*)"
    ],
    "defaultMode": "acceptEdits"
  }
}
`,
    );
    const settings = await loadSettings({ projectDir });
    expect(settings.defaultMode).toBe('acceptEdits');
    expect(settings.allow).toEqual([
      { text: 'Read', toolName: 'Read', source: `${file}:3:15 permissions.allow[0]` },
      {
        text: 'Bash(npm test:*)',
        toolName: 'Bash',
        specifier: 'npm test:*',
        source: `${file}:3:23 permissions.allow[1]`,
      },
    ]);
    expect(settings.deny.map((rule) => rule.source)).toEqual([`${file}:5:7 permissions.deny[0]`]);
  });

  it("puts the user's rules first and lets the project's default mode win", async () => {
    await writeSettings(
      homeDir,
      '{ "permissions": { "allow": ["Read"], "deny": ["Edit(.env)"], "defaultMode": "plan" } }',
    );
    await writeSettings(
      projectDir,
      '{ "permissions": { "allow": ["Edit"], "defaultMode": "default" } }',
    );
    const settings = await loadSettings({ projectDir, homeDir });
    expect(settings.allow.map((rule) => rule.text)).toEqual(['Read', 'Edit']);
    expect(settings.deny.map((rule) => rule.text)).toEqual(['Edit(.env)']);
    expect(settings.defaultMode).toBe('default');
  });

  it("keeps the user's default mode when the project sets none", async () => {
    await writeSettings(homeDir, '{ "permissions": { "defaultMode": "plan" } }');
    await writeSettings(projectDir, '{ "permissions": {} }');
    expect((await loadSettings({ projectDir, homeDir })).defaultMode).toBe('plan');
  });

  it('reads the home folder only when asked to', async () => {
    await writeSettings(homeDir, '{ "permissions": { "allow": ["Bash"] } }');
    expect((await loadSettings({ projectDir })).allow).toEqual([]);
  });

  it('ignores other top-level settings and an empty file', async () => {
    await writeSettings(homeDir, '\n');
    await writeSettings(projectDir, '{ "hooks": {}, "permissions": { "allow": ["Read"] } }');
    const settings = await loadSettings({ projectDir, homeDir });
    expect(settings.allow.map((rule) => rule.text)).toEqual(['Read']);
  });

  it("hands on each file's hooks as written, the user's first, with their places named", async () => {
    await writeSettings(homeDir, '{ "hooks": { "Stop": [] } }');
    const file = await writeSettings(
      projectDir,
      '{\n  "hooks": {\n    "PreToolUse": [{ "hooks": [] }]\n  }\n}',
    );
    const extra = path.join(root(), 'extra.json');
    await writeFile(
      extra,
      '{ "hooks": { "SessionEnd": [] }, "permissions": { "defaultMode": "plan" } }',
    );
    const settings = await loadSettings({ projectDir, homeDir, settingsFile: extra });
    expect(settings.hooks.map((section) => section.value)).toEqual([
      { Stop: [] },
      { PreToolUse: [{ hooks: [] }] },
      { SessionEnd: [] },
    ]);
    expect(settings.hooks[1]!.where(['PreToolUse', 0, 'hooks'])).toBe(
      `${file}:3:22 hooks.PreToolUse[0].hooks`,
    );
    expect(settings.defaultMode).toBe('plan');
  });

  it('requires the file --settings names', async () => {
    const missing = path.join(root(), 'nope.json');
    const error = await configErrorOf(loadSettings({ projectDir, settingsFile: missing }));
    expect(error.message).toBe(
      `--settings ${missing}: no such file (give the path of a settings file)`,
    );
  });

  it('names the file, line and column of invalid JSON and how to fix it', async () => {
    const file = await writeSettings(
      projectDir,
      `{
  "permissions": {
    "allow": ["Read", "Edit",],
  }
}`,
    );
    const error = await loadError();
    expect(error.where).toBe(`${file}:3:30`);
    expect(error.message).toBe(
      `${file}:3:30: not valid JSON: Unexpected token ']' (settings files are strict JSON: double-quoted names and strings, no comments, no trailing commas)`,
    );
  });

  it('points at comments and unquoted names too', async () => {
    const file = await writeSettings(projectDir, '{\n  // rules\n  "permissions": {}\n}');
    expect((await loadError()).where).toBe(`${file}:2:3`);
    await writeSettings(projectDir, '{\n  permissions: {}\n}');
    const error = await loadError();
    expect(error.where).toBe(`${file}:2:3`);
    expect(error.problem).toMatch(/^not valid JSON: Expected .*property name/);
  });

  it('names the line and field of a value of the wrong type', async () => {
    const { file, error } = await refused('{\n  "permissions": {\n    "allow": "Read"\n  }\n}');
    expect(error.where).toBe(`${file}:3:5`);
    expect(error.problem).toBe('permissions.allow: Invalid input: expected array, received string');
    expect(error.fix).toContain('"allow": ["Read", "Bash(npm test:*)"]');
  });

  it('names an unknown mode and lists the known ones', async () => {
    const { file, error } = await refused('{ "permissions": {\n  "defaultMode": "dontAsk" } }');
    expect(error.where).toBe(`${file}:2:3`);
    expect(error.problem).toContain('permissions.defaultMode');
    expect(error.fix).toBe('use one of: plan, default, acceptEdits, bypassPermissions');
  });

  it('names an unknown field inside permissions', async () => {
    const { file, error } = await refused(
      '{ "permissions": {\n  "allow": [],\n  "ask": ["Bash"] } }',
    );
    expect(error.where).toBe(`${file}:3:3`);
    expect(error.problem).toBe('permissions.ask is not a known field');
  });

  it('names the entry of a rule that does not parse', async () => {
    const { file, error } = await refused(
      '{ "permissions": {\n  "deny": [\n    "Read",\n    "Bash(rm -rf"\n  ] } }',
    );
    expect(error.where).toBe(`${file}:4:5 permissions.deny[1]`);
    expect(error.problem).toBe('rule "Bash(rm -rf" has no closing ")"');
  });

  it('names the user settings file when that is the broken one', async () => {
    const { file, error } = await refused('{ "permissions": { "allow": [1] } }', homeDir);
    expect(error.where).toBe(`${file}:1:30`);
    expect(error.problem).toBe(
      'permissions.allow[0]: Invalid input: expected string, received number',
    );
  });
});
