import { describe, expect, it } from 'vitest';
import { EventChannel } from './event-channel.js';

describe('EventChannel', () => {
  it('hands out pushed items in order, including ones pushed while the reader waits', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    setTimeout(() => {
      channel.push(2);
      channel.push(3);
      channel.close();
    }, 5);
    const seen: number[] = [];
    for await (const item of channel) seen.push(item);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('ignores pushes after close', async () => {
    const channel = new EventChannel<string>();
    channel.close();
    channel.push('late');
    const seen: string[] = [];
    for await (const item of channel) seen.push(item);
    expect(seen).toEqual([]);
  });
});

describe('EventChannel endings', () => {
  it('hands the value it was closed with to the first read after the items, once', async () => {
    const channel = new EventChannel<number, string>();
    channel.push(1);
    channel.close('the end');
    expect(await channel.next()).toEqual({ value: 1, done: false });
    expect(await channel.next()).toEqual({ value: 'the end', done: true });
    expect(await channel.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects the first read after the items when it failed', async () => {
    const channel = new EventChannel<number>();
    const waiting = channel.next();
    channel.fail(new Error('broken'));
    await expect(waiting).rejects.toThrow('broken');
    expect(await channel.next()).toEqual({ value: undefined, done: true });
  });

  it('drops what was not read when discarded', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    channel.discard();
    channel.push(2);
    expect(await channel.next()).toEqual({ value: undefined, done: true });
  });
});
