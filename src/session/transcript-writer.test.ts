import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { emptyUsage } from '../core/usage.js';
import { resultEvent } from '../testing/run-results.js';
import { useTempDir } from '../testing/temp-dir.js';
import { readTranscript } from './read-transcript.js';
import { redactSecrets, secretValuesFromEnv, TranscriptWriter } from './transcript-writer.js';

const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };
const child: AgentRef = { agentId: 'agent-1', parentId: 'main', depth: 1 };
const grandchild: AgentRef = { agentId: 'agent-2', parentId: 'agent-1', depth: 2 };

const sessionDir = useTempDir('warren-transcript-');
let writer: TranscriptWriter;

beforeEach(() => {
  writer = new TranscriptWriter({
    sessionDir: sessionDir(),
    sessionId: 's1',
    mainAgentId: 'main',
    env: {},
  });
});

afterEach(() => {
  writer.close();
});

function messageEnd(ref: AgentRef, message: Message): AgentEvent {
  return { ...ref, type: 'message_end', message };
}

function recordsIn(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('TranscriptWriter', () => {
  it('has a line on disk as soon as write returns', () => {
    writer.write(messageEnd(main, { role: 'user', content: 'hello' }));
    const records = recordsIn(join(sessionDir(), 's1.jsonl'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      v: 1,
      type: 'message',
      agentId: 'main',
      parentId: null,
      depth: 0,
      message: { role: 'user', content: 'hello' },
    });
    expect(Number.isNaN(Date.parse(String(records[0]?.timestamp)))).toBe(false);
  });

  it("routes each sub-agent's events to its own sidechain file", () => {
    writer.write(messageEnd(main, { role: 'user', content: 'for main' }));
    writer.write(messageEnd(child, { role: 'user', content: 'for the child' }));
    writer.write(messageEnd(grandchild, { role: 'user', content: 'for the grandchild' }));

    const childPath = join(sessionDir(), 's1', 'agents', 'agent-1.jsonl');
    const grandchildPath = join(sessionDir(), 's1', 'agents', 'agent-2.jsonl');
    expect(writer.pathFor('main')).toBe(join(sessionDir(), 's1.jsonl'));
    expect(writer.pathFor('agent-1')).toBe(childPath);
    expect(recordsIn(join(sessionDir(), 's1.jsonl')).map((r) => r.message)).toEqual([
      { role: 'user', content: 'for main' },
    ]);
    expect(recordsIn(childPath)).toMatchObject([
      { agentId: 'agent-1', parentId: 'main', depth: 1, message: { content: 'for the child' } },
    ]);
    expect(recordsIn(grandchildPath)).toMatchObject([
      { agentId: 'agent-2', parentId: 'agent-1', depth: 2 },
    ]);
  });

  it('creates no sidechain folder for a run without sub-agents', () => {
    writer.write(messageEnd(main, { role: 'user', content: 'alone' }));
    expect(existsSync(join(sessionDir(), 's1'))).toBe(false);
  });

  it('keeps what resume and people need, not deltas or the conversation twice', () => {
    const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 5 };
    const events: AgentEvent[] = [
      {
        ...main,
        type: 'run_start',
        agentType: 'main',
        description: 'd',
        model: 'scripted:x',
        tools: ['Read'],
        cwd: '/w',
        path: 'main',
      },
      { ...main, type: 'turn_start', turn: 1 },
      { ...main, type: 'message_start' },
      { ...main, type: 'message_delta', text: 'partial' },
      { ...main, type: 'tool_start', toolCallId: 't1', toolName: 'Bash', input: {} },
      { ...main, type: 'tool_delta', toolCallId: 't1', toolName: 'Bash', text: 'progress' },
      {
        ...main,
        type: 'tool_end',
        toolCallId: 't1',
        toolName: 'Bash',
        output: 'THE TOOL OUTPUT',
        isError: false,
        durationMs: 7,
      },
      { ...main, type: 'retry', attempt: 1, delayMs: 500, error: 'overloaded' },
      {
        ...main,
        type: 'usage',
        turn: 1,
        usage,
        costUsd: null,
        durationMs: 5,
        finishReason: 'stop',
      },
      { ...main, type: 'turn_end', turn: 1, message: { role: 'assistant', content: [] } },
      {
        ...main,
        type: 'result',
        subtype: 'success',
        status: 'completed',
        isError: false,
        result: 'done',
        agentType: 'main',
        description: 'd',
        numTurns: 1,
        toolCalls: 1,
        durationMs: 20,
        usage,
        costUsd: null,
        messages: [{ role: 'user', content: 'THE CONVERSATION AGAIN' }],
      },
    ];
    for (const event of events) writer.write(event);

    const path = join(sessionDir(), 's1.jsonl');
    const records = recordsIn(path);
    expect(records.map((r) => r.type)).toEqual([
      'run_start',
      'tool_end',
      'retry',
      'usage',
      'result',
    ]);
    // A result is kept the moment it is reported, before the tool message gathers its turn's.
    expect(records[1]).toMatchObject({
      toolCallId: 't1',
      toolName: 'Bash',
      output: 'THE TOOL OUTPUT',
      isError: false,
      durationMs: 7,
    });
    expect(records[0]).toMatchObject({ path: 'main' });
    expect(records[3]).toMatchObject({ usage, durationMs: 5, finishReason: 'stop' });
    expect(records[4]).toMatchObject({ result: 'done', numTurns: 1, usage });
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('THE CONVERSATION AGAIN');
    expect(text).not.toContain('partial');
  });

  it('appends to the existing main transcript when a session is resumed', () => {
    writer.write(messageEnd(main, { role: 'user', content: 'first run' }));
    writer.close();
    writer = new TranscriptWriter({
      sessionDir: sessionDir(),
      sessionId: 's1',
      mainAgentId: 'main',
      env: {},
    });
    writer.write(messageEnd(main, { role: 'user', content: 'resumed run' }));

    expect(recordsIn(join(sessionDir(), 's1.jsonl')).map((r) => r.message)).toEqual([
      { role: 'user', content: 'first run' },
      { role: 'user', content: 'resumed run' },
    ]);
  });

  it('starts a new line after a line cut off by a killed process', () => {
    const path = join(sessionDir(), 's1.jsonl');
    writeFileSync(path, '{"v":1,"type":"message","agentId":"main","mess');
    writer.write(messageEnd(main, { role: 'user', content: 'after the crash' }));

    const { messages, warnings } = readTranscript(path);
    expect(messages).toEqual([{ role: 'user', content: 'after the crash' }]);
    expect(warnings).toEqual([expect.stringContaining(`${path}:1:`)]);
  });

  it("closes an agent's file when its result is written, and opens it again if it goes on", () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const result = (ref: AgentRef) =>
      resultEvent(ref, { result: 'done', agentType: 'general-purpose' });
    for (let index = 0; index < 300; index++) {
      const agent = { agentId: `agent-${index}`, parentId: 'main', depth: 1 };
      writer.write(messageEnd(agent, { role: 'user', content: 'work' }));
      writer.write(result(agent));
    }
    expect(openFiles() - before).toBeLessThan(5);

    writer.write(messageEnd(child, { role: 'user', content: 'one more thing' }));
    expect(recordsIn(writer.pathFor('agent-1')).map((r) => r.type)).toEqual([
      'message',
      'result',
      'message',
    ]);
  });

  it('refuses writes after close, so a late event is not silently lost', () => {
    writer.close();
    expect(() => writer.write(messageEnd(main, { role: 'user', content: 'late' }))).toThrow(
      /after close/,
    );
  });

  it('never writes API keys, bearer tokens or secret environment values', () => {
    const anthropicKey = `sk-ant-api03-${'a1B2'.repeat(10)}`;
    const bearer = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';
    const serviceToken = 'tok_live_0123456789';
    writer.close();
    writer = new TranscriptWriter({
      sessionDir: sessionDir(),
      sessionId: 's1',
      mainAgentId: 'main',
      env: { MY_SERVICE_TOKEN: serviceToken },
    });
    writer.write(
      messageEnd(main, {
        role: 'assistant',
        content: [
          { type: 'text', text: `The key is ${anthropicKey}.` },
          {
            type: 'tool-call',
            toolCallId: 't1',
            toolName: 'Bash',
            input: { command: `curl -H "Authorization: Bearer ${bearer}" -d ${serviceToken}` },
          },
        ],
      }),
    );
    writer.write(messageEnd(child, { role: 'user', content: `child saw ${serviceToken}` }));

    const mainText = readFileSync(writer.pathFor('main'), 'utf8');
    const childText = readFileSync(writer.pathFor('agent-1'), 'utf8');
    for (const secret of [anthropicKey, bearer, serviceToken]) {
      expect(mainText).not.toContain(secret);
      expect(childText).not.toContain(secret);
    }
    expect(mainText).toContain('The key is [REDACTED].');
    expect(mainText).toContain('Authorization: Bearer [REDACTED]');
    expect(childText).toContain('child saw [REDACTED]');
  });
});

describe('redactSecrets', () => {
  it('redacts OpenAI and Anthropic keys', () => {
    expect(redactSecrets('OPENAI_API_KEY=sk-proj-AbCdEf0123456789XyZ done')).toBe(
      'OPENAI_API_KEY=[REDACTED] done',
    );
    expect(redactSecrets(`"sk-ant-api03-${'x'.repeat(40)}"`)).toBe('"[REDACTED]"');
  });

  it('redacts bearer tokens but keeps the word', () => {
    expect(redactSecrets('authorization: bearer abcdef0123456789abcdef')).toBe(
      'authorization: bearer [REDACTED]',
    );
  });

  it('redacts every occurrence of a given secret value', () => {
    expect(
      redactSecrets('a hunter2hunter2 b hunter2hunter2', { secrets: ['hunter2hunter2'] }),
    ).toBe('a [REDACTED] b [REDACTED]');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Run the task-list, pip install sk-learn, and read about Bearer authentication.';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('secretValuesFromEnv', () => {
  it('takes values of *_API_KEY, *_TOKEN and *_SECRET variables, longest first', () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-short-1234',
      GITHUB_TOKEN: 'ghp_0123456789abcdef0123',
      CLIENT_SECRET: 'shhh-secret-value',
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
    };
    expect(secretValuesFromEnv(env)).toEqual([
      'ghp_0123456789abcdef0123',
      'sk-ant-short-1234',
      'shhh-secret-value',
    ]);
  });

  it('ignores values too short to tell from ordinary words', () => {
    expect(secretValuesFromEnv({ DEBUG_TOKEN: '1', FEATURE_SECRET: 'true' })).toEqual([]);
  });
});

describe('a process killed with SIGKILL', () => {
  it('leaves every line it reported in the transcript', async () => {
    const writerUrl = new URL('./transcript-writer.ts', import.meta.url).href;
    const script = join(sessionDir(), 'child.mjs');
    writeFileSync(script, CHILD_SCRIPT);

    const worker = spawn(process.execPath, [script, writerUrl, sessionDir()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = once(worker, 'close');
    let stderr = '';
    worker.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const reported = await new Promise<string[]>((resolve, reject) => {
      let stdout = '';
      worker.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const complete = stdout.split('\n').slice(0, -1);
        if (complete.length >= 50) {
          worker.kill('SIGKILL');
          resolve(complete);
        }
      });
      worker.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    });
    await closed;
    expect(worker.signalCode).toBe('SIGKILL');

    const mainContents = new Set(
      readTranscript(join(sessionDir(), 's.jsonl')).messages.map((m) => m.content),
    );
    const childContents = new Set(
      readTranscript(join(sessionDir(), 's', 'agents', 'child.jsonl')).messages.map(
        (m) => m.content,
      ),
    );
    for (const line of reported) {
      const [agent, content] = line.split(' ', 2);
      const contents = agent === 'main' ? mainContents : childContents;
      expect(contents.has(content ?? '')).toBe(true);
    }
  });
});

// Runs the TypeScript source with Node's type stripping; the hook maps `./x.js` imports to
// `./x.ts` as the TypeScript build would. It never closes the writer: the kill is the end.
const CHILD_SCRIPT = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
      return nextResolve(specifier.slice(0, -3) + '.ts', context);
    }
  },
});
const [writerUrl, sessionDir] = process.argv.slice(2);
const { TranscriptWriter } = await import(writerUrl);
const writer = new TranscriptWriter({ sessionDir, sessionId: 's', mainAgentId: 'main', env: {} });
for (let i = 0; ; i++) {
  const ref = i % 2 === 0
    ? { agentId: 'main', parentId: null, depth: 0 }
    : { agentId: 'child', parentId: 'main', depth: 1 };
  const content = 'line-' + i;
  writer.write({ ...ref, type: 'message_end', message: { role: 'user', content } });
  process.stdout.write(ref.agentId + ' ' + content + '\\n');
  await new Promise((resolve) => setTimeout(resolve, 1));
}
`;
