// However many changes arrive, listeners hear of them at most once per interval; the first
// change after a quiet spell is not delayed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangeFeed } from './change-feed.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the change feed', () => {
  it('coalesces a burst of changes into one notification per interval', () => {
    const feed = new ChangeFeed({ intervalMs: 100 });
    const heard = vi.fn();
    feed.subscribe(heard);
    feed.changed();
    expect(heard).toHaveBeenCalledTimes(1);
    for (let index = 0; index < 1000; index++) feed.changed();
    expect(heard).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    expect(heard).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1000);
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('tells at once when flushed, and moves its version on each time', () => {
    const feed = new ChangeFeed({ intervalMs: 100 });
    const version = feed.version();
    feed.changed();
    feed.changed();
    feed.flush();
    expect(feed.version()).toBe(version + 2);
    vi.advanceTimersByTime(500);
    expect(feed.version()).toBe(version + 2);
  });

  it('waits longer after costly draws, so drawing keeps to its share of the time', () => {
    const feed = new ChangeFeed({ intervalMs: 100, drawShare: 0.05 });
    const draw = (...parts: number[]) => {
      for (const part of parts) feed.drew(part);
      feed.flush();
    };
    draw(1, 1);
    expect(feed.intervalMs).toBe(100);
    // 30 ms a draw (React 10, Ink 20) at 5% of the time: about one draw every 600 ms.
    for (let index = 0; index < 10; index++) draw(10, 20);
    expect(feed.intervalMs).toBeGreaterThan(500);
    for (let index = 0; index < 50; index++) draw(500);
    expect(feed.intervalMs).toBe(1000);
    const heard = vi.fn();
    feed.subscribe(heard);
    vi.advanceTimersByTime(1000);
    feed.changed();
    feed.changed();
    vi.advanceTimersByTime(999);
    expect(heard).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
