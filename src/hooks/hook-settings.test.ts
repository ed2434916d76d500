// The `hooks` setting: Claude Code's shape checked entry by entry, each problem at its place;
// Claude Code's events and hook types warren does not run are reported, not fatal.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { compileMatcher } from './hook-matcher.js';
import { checkHookSettings, compileHookSettings, formatHookPath } from './hook-settings.js';

const label = (path: ReadonlyArray<string | number>) => `hooks.${formatHookPath(path)}`;
const check = (value: unknown, callbacks = false) => checkHookSettings(value, { label, callbacks });
const messages = (problems: ReturnType<typeof check>['errors']) =>
  problems.map(({ path, message }) => `${formatHookPath(path)}: ${message}`);

describe('the hooks setting', () => {
  it('compiles command hooks by event, with timeouts in seconds and labels by place', () => {
    const { hooks, errors } = check({
      PreToolUse: [
        { matcher: 'Write|Edit', hooks: [{ type: 'command', command: './check.sh', timeout: 5 }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: './done.sh' }] }],
    });
    expect(errors).toEqual([]);
    const [group] = hooks.get('PreToolUse')!;
    expect(group!.handlers).toEqual([
      {
        label: 'hooks.PreToolUse[0].hooks[0]',
        timeoutMs: 5000,
        hook: { type: 'command', command: './check.sh' },
      },
    ]);
    expect(hooks.get('Stop')![0]!.handlers[0]!.timeoutMs).toBe(60_000);
  });

  it('names each bad entry: unknown event, bad regex, missing command, wrong type', () => {
    const { errors } = check({
      PreToolUse: [
        { matcher: '(', hooks: [{ type: 'command', command: '' }] },
        { hooks: [{ type: 'shell', command: 'x' }, () => {}] },
      ],
      PreTooluse: [],
      Stop: { hooks: [] },
    });
    expect(messages(errors)).toEqual([
      expect.stringMatching(/^PreToolUse\[0\]\.matcher: is not a valid regular expression/),
      'PreToolUse[0].hooks[0].command: must be the command to run, a non-empty string',
      'PreToolUse[1].hooks[0].type: must be "command"',
      'PreToolUse[1].hooks[1]: a function is not allowed here: write { "type": "command", "command": "…" }',
      expect.stringMatching(
        /^PreTooluse: unknown hook event "PreTooluse" \(warren fires PreToolUse, /,
      ),
      'Stop: must be a list of { "matcher": "…", "hooks": [ … ] }',
    ]);
  });

  it('reports Claude Code events and hook types warren does not run, and keeps the rest', () => {
    const { hooks, errors, warnings } = check({
      PreCompact: [{ hooks: [{ type: 'command', command: 'x' }] }],
      Stop: [
        {
          hooks: [
            { type: 'prompt', prompt: 'is it done?' },
            { type: 'command', command: 'y' },
          ],
        },
      ],
    });
    expect(errors).toEqual([]);
    expect(messages(warnings)).toEqual([
      'PreCompact: PreCompact is a Claude Code event warren does not fire; its hooks are ignored',
      'Stop[0].hooks[0]: hooks of type "prompt" are not run by warren (only "command"); this one is ignored',
    ]);
    expect([...hooks.keys()]).toEqual(['Stop']);
  });

  it('takes callbacks where code writes the hooks', () => {
    const callback = async () => undefined;
    const { hooks, errors } = check({ Stop: [{ hooks: [callback], timeout: 2 }] }, true);
    expect(errors).toEqual([]);
    expect(hooks.get('Stop')![0]!.handlers[0]).toMatchObject({ hook: callback, timeoutMs: 2000 });
  });

  it('as a whole source, fails with a ConfigError at the first bad entry', () => {
    const where = (path: ReadonlyArray<string | number>) =>
      `settings.json:3:5 hooks.${formatHookPath(path)}`;
    expect(() =>
      compileHookSettings({ Stop: [{ hooks: 'x' }] }, { where, callbacks: false }),
    ).toThrow(
      new ConfigError(
        'settings.json:3:5 hooks.Stop[0].hooks',
        'must be a list of hooks, e.g. [{ "type": "command", "command": "…" }]',
      ).message.split(' (')[0],
    );
  });
});

describe('a matcher', () => {
  it.each([
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'Bash', true],
    ['Bash', 'Bash', true],
    ['Bash', 'BashOutput', false],
    ['Write|Edit', 'Edit', true],
    ['Write|Edit', 'Read', false],
    ['Task', 'Agent', true],
    ['mcp__fs__.*', 'mcp__fs__read', true],
    ['^Bash', 'BashOutput', true],
    ['mcp__fs__.*', 'mcp__git__log', false],
  ])('%j matches %s: %s', (matcher, name, expected) => {
    expect(compileMatcher(matcher)(name)).toBe(expected);
  });
});
