import { describe, expect, it } from 'vitest';
import { thrownConfigError } from '../testing/caught-errors.js';
import { parseCliArgs } from './cli-args.js';

function errorOf(argv: string[]): string {
  return thrownConfigError(() => parseCliArgs(argv)).message;
}

describe('flags as people type them', () => {
  it("takes Claude Code's camelCase spellings of the flags warren shares with it", () => {
    const args = parseCliArgs([
      '-p',
      'hi',
      '--allowedTools',
      'Read',
      '--disallowedTools=Bash',
      '--maxTurns',
      '3',
      '--permissionMode',
      'plan',
      '--outputFormat',
      'json',
      '--mcpConfig',
      'a.json',
    ]);
    expect(args).toMatchObject({
      command: 'print',
      allowedTools: 'Read',
      disallowedTools: 'Bash',
      maxTurns: 3,
      permissionMode: 'plan',
      outputFormat: 'json',
      mcpConfigs: ['a.json'],
    });
  });

  it('leaves values as typed, and the prompt', () => {
    expect(parseCliArgs(['--allowedTools=--maxTurns', '-p', '--', '--maxTurns'])).toMatchObject({
      allowedTools: '--maxTurns',
      prompt: '--maxTurns',
    });
  });

  it('reads -v as --verbose beside a prompt, and as --version alone', () => {
    expect(parseCliArgs(['-p', 'hi', '-v'])).toMatchObject({ command: 'print', verbose: true });
    expect(parseCliArgs(['-v'])).toEqual({ command: 'version' });
  });

  it('offers the nearest flag for a misspelt one', () => {
    expect(errorOf(['-p', 'hi', '--max-turn', '3'])).toBe(
      "--max-turn: Unknown option '--max-turn' (did you mean --max-turns?; run warren --help for all flags)",
    );
    expect(errorOf(['-p', 'hi', '--alowedTools', 'Read'])).toMatch(
      /did you mean --allowed-tools\?/,
    );
  });

  it('says what to use for a Claude Code flag warren has no counterpart of', () => {
    expect(errorOf(['-p', 'hi', '--dangerouslySkipPermissions'])).toMatch(
      /use --permission-mode bypassPermissions/,
    );
  });

  it('takes --systemPrompt and --appendSystemPrompt, but not beside --agent', () => {
    expect(
      parseCliArgs(['-p', 'hi', '--systemPrompt', 'Be terse.', '--appendSystemPrompt', 'Say X.']),
    ).toMatchObject({ systemPrompt: 'Be terse.', appendSystemPrompt: 'Say X.' });
    expect(errorOf(['-p', 'hi', '--agent', 'a', '--append-system-prompt', 'x'])).toMatch(
      /^--append-system-prompt: cannot be used with --agent/,
    );
  });

  it('offers the nearest command for a misspelt one', () => {
    expect(errorOf(['agnets'])).toMatch(
      /^"agnets": is not a command \(did you mean `warren agents`\?/,
    );
    expect(errorOf(['hello'])).toBe(
      '"hello": is not a command (to run a prompt to the end, use -p "<prompt>")',
    );
  });
});
