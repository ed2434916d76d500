// Command hooks for tests: small node scripts written to a temp dir, each logging the JSON it
// was given on stdin (one line per call) before it does what the test asks.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface HookScript {
  /** The command line that runs it, for a `{ type: 'command', command }` hook. */
  command: string;
  /** Every input it was given, in call order. */
  calls(): Array<Record<string, unknown>>;
}

/**
 * Writes `<dir>/<name>.mjs`. `body` is the script's JavaScript after the input is read: `input`
 * holds the event, and it may print to stdout or stderr and `process.exit(code)`.
 */
export async function writeHookScript(
  dir: string,
  name: string,
  body: string,
): Promise<HookScript> {
  const file = path.join(dir, `${name}.mjs`);
  const log = path.join(dir, `${name}.calls.jsonl`);
  await writeFile(
    file,
    `import { appendFileSync } from 'node:fs';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(input) + '\\n');
${body}
`,
  );
  return {
    command: `"${process.execPath}" "${file}"`,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [],
  };
}

/** A body that prints `output` as JSON and exits 0. */
export function answer(output: unknown): string {
  return `process.stdout.write(${JSON.stringify(JSON.stringify(output))});`;
}
