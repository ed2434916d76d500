// `npm run demo`: warren fixes a bug in a scratch git repository, with an explore sub-agent.
// The model is scripted (no API key needed); everything else is real: the CLI, the tools, the
// files, git, the transcripts.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const scratch = mkdtempSync(join(tmpdir(), 'warren-demo-'));
const sessions = join(scratch, '.sessions');

writeProject(scratch);
const prompt = 'The price test fails. Find the bug and fix it.';
console.log(`warren demo — a scripted model, real tools, a scratch git repository: ${scratch}\n`);
console.log(
  `$ warren -p "${prompt}" --model scripted:demo/script.yaml --permission-mode acceptEdits \\`,
);
console.log(`    --allowed-tools "Bash(node test/*)" --output-format stream-json\n`);

const child = spawn(
  process.execPath,
  [
    join(root, 'bin/warren.js'),
    '-p',
    prompt,
    '--model',
    `scripted:${join(root, 'demo/script.yaml')}`,
    '--cwd',
    scratch,
    '--session-dir',
    sessions,
    '--permission-mode',
    'acceptEdits',
    '--allowed-tools',
    'Bash(node test/*)',
    '--output-format',
    'stream-json',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);

let result;
for await (const line of createInterface({ input: child.stdout })) {
  const event = JSON.parse(line);
  if (event.type === 'result') result = event;
  else show(event);
}
const code = await new Promise((resolve) => child.on('close', resolve));

console.log(`\n── result (exit ${code}) ──\n${result?.result}\n`);
console.log(
  `turns: ${result?.num_turns}, tokens in/out: ${result?.usage.input_tokens}/${result?.usage.output_tokens}; agents and their transcripts:`,
);
for (const agent of result?.agents ?? []) {
  const pad = '  '.repeat(agent.depth + 1);
  console.log(
    `${pad}${agent.agent_type} (${agent.status}, ${agent.num_turns} turns): ${agent.transcript}`,
  );
}
console.log('\n── git diff in the scratch repository ──');
console.log(execFileSync('git', ['diff'], { cwd: scratch, encoding: 'utf8' }));
console.log(
  'To run the same task on a real model: warren -p "…" --model anthropic:claude-sonnet-4-5 (ANTHROPIC_API_KEY),\n' +
    'or on a local Ollama: --model openai-compatible:llama3.1 --base-url http://localhost:11434/v1',
);
process.exitCode = code;

/** One event of the stream-json output, indented by the depth of the agent it belongs to. */
function show(event) {
  const pad = '    '.repeat(event.depth ?? 0);
  const say = (text) => console.log(text.replace(/^/gm, pad));
  if (event.type === 'system' && event.subtype === 'init') {
    say(`● session ${event.session_id} — model ${event.model}, tools ${event.tools.join(' ')}`);
  } else if (event.type === 'agent_start') {
    say(
      `▸ sub-agent ${event.agent_type} started: ${event.description} (tools ${event.tools.join(' ')})`,
    );
  } else if (event.type === 'agent_end') {
    say(`◂ sub-agent ${event.agent_type} ${event.status} after ${event.num_turns} turns`);
  } else if (event.type === 'assistant') {
    for (const part of event.message.content) {
      if (part.type === 'text') say(`\n◆ ${part.text}`);
      else say(`  → ${part.toolName} ${JSON.stringify(part.input)}`);
    }
  } else if (event.type === 'tool_result') {
    const lines = event.content.split('\n');
    const head = lines
      .slice(0, 6)
      .map((text) => `    ${text}`)
      .join('\n');
    const more = lines.length > 6 ? `\n    … ${lines.length - 6} more lines` : '';
    say(
      `  ${event.is_error ? '✗' : '✓'} ${event.tool_name} (${event.duration_ms} ms)\n${head}${more}`,
    );
  }
}

function writeProject(dir) {
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'src/price.js'),
    `// Prices in whole units.\nexport function applyDiscount(price, percent) {\n  return price + price * (percent / 100);\n}\n`,
  );
  writeFileSync(
    join(dir, 'test/price.test.js'),
    `import assert from 'node:assert/strict';\nimport { applyDiscount } from '../src/price.js';\n\nconst got = applyDiscount(100, 10);\nassert.equal(got, 90, \`applyDiscount(100, 10): expected 90, got \${got}\`);\nconsole.log('all tests passed');\n`,
  );
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, '.gitignore'), '.sessions/\n');
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=demo', '-c', 'user.email=demo@example.com', 'commit', '-qm', 'initial');
}
