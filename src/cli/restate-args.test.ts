// The restate command line as typed: `warren restate serve|register` and the executor flags,
// with the message a person gets for each mistake.
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { executorArgs } from './restate-args.js';

describe('warren restate', () => {
  it('parses serve and register', () => {
    expect(parseCliArgs(['restate', 'serve', '--port', '9080'])).toMatchObject({
      command: 'restate',
      action: 'serve',
      port: 9080,
      host: '127.0.0.1',
    });
    expect(
      parseCliArgs([
        'restate',
        'register',
        'http://10.0.0.5:9080/',
        '--admin-url',
        'http://r:9070',
      ]),
    ).toEqual({
      command: 'restate',
      action: 'register',
      workerUrl: 'http://10.0.0.5:9080',
      adminUrl: 'http://r:9070',
    });
  });

  it('names the mistake and the fix', () => {
    expect(() => parseCliArgs(['restate', 'serve'])).toThrow(
      /needs --port.*warren restate serve --port <p>/,
    );
    expect(() => parseCliArgs(['restate', 'serve', '--port', 'x'])).toThrow(
      /--port: expected a port number/,
    );
    expect(() => parseCliArgs(['restate', 'register'])).toThrow(/needs the worker URL/);
    expect(() => parseCliArgs(['restate', 'start'])).toThrow(
      /restate start: is not a restate command/,
    );
    expect(() => parseCliArgs(['restate', 'register', 'http://u:p@h:1'])).toThrow(
      /must not carry a user name or password/,
    );
  });
});

describe("a worker's own limits and key on the command line", () => {
  it('defaults to real providers and the default mode, and takes narrower or wider ones', () => {
    expect(parseCliArgs(['restate', 'serve', '--port', '0'])).toMatchObject({
      providers: ['anthropic', 'openai', 'openai-compatible'],
      maxPermissionMode: 'default',
      insecureNoAuth: false,
      baseUrl: undefined,
      remoteKeyFile: undefined,
    });
    expect(
      parseCliArgs([
        'restate',
        'serve',
        '--port',
        '0',
        '--providers',
        'anthropic',
        '--max-permission-mode',
        'plan',
        '--base-url',
        'http://127.0.0.1:11434/v1/',
        '--remote-key-file',
        '/etc/warren/remote.key',
      ]),
    ).toMatchObject({
      providers: ['anthropic'],
      maxPermissionMode: 'plan',
      baseUrl: 'http://127.0.0.1:11434/v1',
      remoteKeyFile: '/etc/warren/remote.key',
    });
    expect(parseCliArgs(['restate', 'keygen'])).toEqual({ command: 'restate', action: 'keygen' });
  });

  it('names a wrong provider, mode or endpoint and the fix', () => {
    const serve =
      (...flags: string[]) =>
      () =>
        parseCliArgs(['restate', 'serve', '--port', '0', ...flags]);
    expect(serve('--providers', 'anthropic,evil')).toThrow(
      /--providers: unknown provider "evil" \(a comma-separated list of anthropic/,
    );
    expect(serve('--max-permission-mode', 'yolo')).toThrow(
      /--max-permission-mode: unknown mode "yolo" \(use one of: plan, default, acceptEdits, bypassPermissions\)/,
    );
    expect(serve('--base-url', 'http://u:p@h/v1')).toThrow(
      /must not carry a user name or password/,
    );
  });
});

describe('the executor flags of a run', () => {
  it('defaults to local, reads WARREN_RESTATE_URL and puts the admin API on port 9070', () => {
    expect(executorArgs({}, {})).toEqual({
      executor: 'local',
      restateUrl: undefined,
      restateAdminUrl: undefined,
    });
    expect(executorArgs({}, { WARREN_RESTATE_URL: 'http://restate:8080' })).toEqual({
      executor: 'local',
      restateUrl: 'http://restate:8080',
      restateAdminUrl: 'http://restate:9070',
    });
    expect(
      executorArgs(
        { executor: 'restate', 'restate-url': 'http://a:1', 'restate-admin-url': 'http://b:2' },
        {},
      ),
    ).toEqual({ executor: 'restate', restateUrl: 'http://a:1', restateAdminUrl: 'http://b:2' });
  });

  it('refuses --executor restate without an ingress, and unknown executors', () => {
    expect(() => executorArgs({ executor: 'restate' }, {})).toThrow(
      /--executor restate: needs the Restate ingress URL.*WARREN_RESTATE_URL/,
    );
    expect(() => executorArgs({ executor: 'dbos' }, {})).toThrow(/use one of: local, restate/);
    expect(() => executorArgs({}, { WARREN_RESTATE_URL: 'ftp://x' })).toThrow(/WARREN_RESTATE_URL/);
  });
});
