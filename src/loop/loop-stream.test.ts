// agentLoop()'s stream keeps an async generator's contract: lazy start, events then the result,
// and return()/throw() stopping the run and waiting for it.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, RunResult } from '../core/events.js';
import { LoopStream, type StartRun } from './loop-stream.js';

const ref = { agentId: 'main', parentId: null, depth: 0 };
const warning = (message: string): AgentEvent => ({ ...ref, type: 'warning', message });
const RESULT = { ...ref, type: 'result', result: 'done' } as unknown as RunResult;

/** A run that pushes `events`, then waits for `release` (or its signal) before it ends. */
function scripted(events: AgentEvent[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const seen: { started: boolean; signal?: AbortSignal; ended: boolean } = {
    started: false,
    ended: false,
  };
  const start: StartRun = async (signal, sink) => {
    seen.started = true;
    seen.signal = signal;
    for (const event of events) sink(event);
    await Promise.race([
      released,
      new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
    ]);
    seen.ended = true;
    return RESULT;
  };
  return { start, release, seen };
}

describe('the loop stream', () => {
  it('starts nothing before the first next(), then hands out the events and the result', async () => {
    const run = scripted([warning('a'), warning('b')]);
    const stream = new LoopStream(undefined, run.start);
    expect(run.seen.started).toBe(false);
    const first = await stream.next();
    expect(first).toEqual({ value: warning('a'), done: false });
    expect(await stream.next()).toEqual({ value: warning('b'), done: false });
    run.release();
    expect(await stream.next()).toEqual({ value: RESULT, done: true });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('answers reads made before the events come, in order', async () => {
    let push!: (event: AgentEvent) => void;
    let end!: () => void;
    const stream = new LoopStream(undefined, (_signal, sink) => {
      push = sink;
      return new Promise((resolve) => {
        end = () => resolve(RESULT);
      });
    });
    const reads = [stream.next(), stream.next(), stream.next()];
    push(warning('1'));
    push(warning('2'));
    end();
    expect(await Promise.all(reads)).toEqual([
      { value: warning('1'), done: false },
      { value: warning('2'), done: false },
      { value: RESULT, done: true },
    ]);
  });

  it('never runs when returned before the first next()', async () => {
    const run = scripted([warning('a')]);
    const stream = new LoopStream(undefined, run.start);
    expect(await stream.return(RESULT)).toEqual({ value: RESULT, done: true });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(run.seen.started).toBe(false);
  });

  it('stops the run and waits for its end when the reader returns early', async () => {
    const run = scripted([warning('a'), warning('b')]);
    const stream = new LoopStream(undefined, run.start);
    await stream.next();
    await stream.return(RESULT);
    expect(run.seen.signal?.aborted).toBe(true);
    expect(run.seen.ended).toBe(true);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('stops the run and rethrows on throw()', async () => {
    const run = scripted([warning('a')]);
    const stream = new LoopStream(undefined, run.start);
    await stream.next();
    await expect(stream.throw(new Error('from the reader'))).rejects.toThrow('from the reader');
    expect(run.seen.ended).toBe(true);
  });

  it("stops with its caller's signal, with the caller's reason", async () => {
    const caller = new AbortController();
    const run = scripted([]);
    const stream = new LoopStream(caller.signal, run.start);
    const reading = stream.next();
    caller.abort(new Error('the caller stopped it'));
    expect(await reading).toEqual({ value: RESULT, done: true });
    expect((run.seen.signal!.reason as Error).message).toBe('the caller stopped it');
  });

  it('rejects once, after the events, when the run rejects', async () => {
    const stream = new LoopStream(undefined, async (_signal, sink) => {
      sink(warning('before'));
      throw new Error('the model failed');
    });
    expect(await stream.next()).toEqual({ value: warning('before'), done: false });
    await expect(stream.next()).rejects.toThrow('the model failed');
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
