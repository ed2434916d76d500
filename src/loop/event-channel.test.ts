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
