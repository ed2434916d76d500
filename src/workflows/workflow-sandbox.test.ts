import { describe, expect, it } from 'vitest';
import { runInSandbox, type SandboxHost } from './workflow-sandbox.js';

/** A host whose agent() answers `echo:<prompt>` after `delayMs`, recording the calls. */
function echoHost(
  delayMs = (_prompt: string) => 1,
): SandboxHost & { calls: string[]; logs: string[] } {
  const calls: string[] = [];
  const logs: string[] = [];
  return {
    calls,
    logs,
    agent: async ({ prompt }) => {
      calls.push(prompt);
      await new Promise((resolve) => setTimeout(resolve, delayMs(prompt)));
      if (prompt.startsWith('fail'))
        throw JSON.stringify({ message: `it failed: ${prompt}`, status: 'failed' });
      return JSON.stringify(`echo:${prompt}`);
    },
    call: (op, payload) => {
      if (op === 'args') return JSON.stringify({ n: 3 });
      if (op === 'log') logs.push((payload as { message: string }).message);
      if (op === 'budget') return JSON.stringify({ total: 10, spent: 4, remaining: 6 });
      if (op === 'items' && (payload as { count: number }).count > 4)
        throw new Error('too many items');
      return 'null';
    },
  };
}

const run = (source: string, host: SandboxHost = echoHost()) =>
  runInSandbox(source, 'flow.js', host);

describe('the workflow sandbox', () => {
  it('runs a module with top-level await and returns its result export', async () => {
    const host = echoHost();
    const result = await run(
      `export const meta = { name: 'x', description: 'y' };
       const a = await agent('one');
       log('got', a, args.n, budget.total, budget.remaining());
       export const result = { a };`,
      host,
    );
    expect(result).toEqual({ a: 'echo:one' });
    expect(host.logs).toEqual(['got echo:one 3 10 6']);
  });

  it('keeps many agent() calls outstanding at once under parallel(), each answered with its own result', async () => {
    const host = echoHost((prompt) => 40 - Number(prompt.slice(1)) * 10);
    const result = await run(
      `export const result = await parallel(() => agent('p1'), () => agent('p2'), () => agent('p3'));`,
      host,
    );
    expect(result).toEqual(['echo:p1', 'echo:p2', 'echo:p3']);
    expect(host.calls).toEqual(['p1', 'p2', 'p3']);
  });

  it('gives pipeline() a null for a failed item and agent() an AgentError saying why', async () => {
    const result = await run(
      `const list = await pipeline(['a', 'fail-b', 'c'], (x) => agent(x));
       let why;
       try { await agent('fail-d'); } catch (e) { why = [e.name, e.status, e.message]; }
       export const result = { list, why };`,
    );
    expect(result).toEqual({
      list: ['echo:a', null, 'echo:c'],
      why: ['AgentError', 'failed', 'it failed: fail-d'],
    });
  });

  it.each([
    ['Date.now()', 'Date.now()'],
    ['Math.random()', 'Math.random()'],
    ['new Date()', 'new Date()'],
    ['new (new Date(0).constructor)()', 'new Date()'],
  ])('refuses %s so a relaunch makes the same calls', async (expression, named) => {
    await expect(run(`export const result = ${expression};`)).rejects.toThrow(
      `${named} is not available in a workflow`,
    );
  });

  it('still allows a fixed date', async () => {
    expect(await run(`export const result = new Date(0).toISOString();`)).toBe(
      '1970-01-01T00:00:00.000Z',
    );
  });

  it.each([
    ['an import', `import fs from 'fs'; export const result = 1;`],
    ['a dynamic import', `export const result = await import('fs');`],
    ['require', `export const result = require('fs');`],
    ['process', `export const result = process.env;`],
    ['fetch', `export const result = await fetch('http://127.0.0.1:1/');`],
    ['std', `export const result = std.loadFile('/etc/passwd');`],
  ])('has no way out: %s fails', async (_name, source) => {
    await expect(run(source)).rejects.toThrow(/flow\.js/);
  });

  it('stops a script that spins, and one that waits on nothing', async () => {
    await expect(
      runInSandbox('while (true) {}', 'spin.js', echoHost(), { stepMs: 200 }),
    ).rejects.toThrow(/spin\.js.*interrupted/);
    await expect(run('await new Promise(() => {});')).rejects.toThrow('never settles');
  });

  it('names the line a script threw on', async () => {
    await expect(run(`const a = 1;\nconst b = 2;\nthrow new Error('boom');`)).rejects.toThrow(
      'flow.js:3: Error: boom',
    );
  });

  it('raises a host refusal inside the script, where it can be caught', async () => {
    await expect(
      run(`export const result = await parallel([1,2,3,4,5].map((n) => () => agent('x' + n)));`),
    ).rejects.toThrow('too many items');
  });

  it('refuses to nest workflows', async () => {
    await expect(run(`workflow('other', {});`)).rejects.toThrow('workflows do not nest');
  });
});
