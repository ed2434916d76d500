// The command lines of `warren mcp serve` and `warren a2a serve`: what each flag means, and one
// clear error, naming the flag and the fix, for each mistake.
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';

const errorOf = (argv: string[]) => {
  try {
    parseCliArgs(argv);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('warren mcp serve / a2a serve flags', () => {
  it('serves stdio by default, every definition, with the run flags', () => {
    expect(parseCliArgs(['mcp', 'serve', '--permission-mode', 'acceptEdits'])).toMatchObject({
      command: 'serve',
      protocol: 'mcp',
      http: false,
      served: undefined,
      permissionMode: 'acceptEdits',
      agent: undefined,
    });
  });

  it('reads --agent as the list to serve, and binds loopback unless told otherwise', () => {
    expect(
      parseCliArgs(['a2a', 'serve', '--port', '0', '--agent', 'a, b', '--token-file', 't']),
    ).toMatchObject({
      protocol: 'a2a',
      http: true,
      served: ['a', 'b'],
      host: '127.0.0.1',
      port: 0,
      tokenFile: 't',
      insecureNoAuth: false,
    });
  });

  it('refuses network flags on stdio, a missing port, and a token with --insecure-no-auth', () => {
    expect(errorOf(['mcp', 'serve', '--token-file', 't'])).toMatch(
      /^--token-file: applies to --http only/,
    );
    expect(errorOf(['mcp', 'serve', '--http'])).toMatch(/^mcp serve: needs --port/);
    expect(errorOf(['a2a', 'serve'])).toMatch(/^a2a serve: needs --port/);
    expect(
      errorOf(['a2a', 'serve', '--port', '1', '--token-file', 't', '--insecure-no-auth']),
    ).toMatch(/^--insecure-no-auth: cannot be used with --token-file/);
    expect(errorOf(['a2a', 'serve', '--port', '70000'])).toMatch(
      /^--port: expected a port up to 65535/,
    );
    expect(errorOf(['a2a', 'list'])).toMatch(/^a2a list: is not an a2a command/);
  });
});
