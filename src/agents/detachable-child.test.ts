import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/events.js';
import { DetachableChild } from './detachable-child.js';

const event: AgentEvent = {
  type: 'warning',
  message: 'hello',
  agentId: 'agent_1',
  parentId: 'main',
  depth: 1,
};

describe('a foreground child that can be sent to the background', () => {
  it('stops when the turn that waits for it is stopped', () => {
    const turn = new AbortController();
    const child = new DetachableChild(() => {}, turn.signal);
    turn.abort(new Error('interrupted'));
    expect(child.signal.aborted).toBe(true);
    expect((child.signal.reason as Error).message).toBe('interrupted');
  });

  it('starts stopped under a turn that was already stopped', () => {
    const turn = new AbortController();
    turn.abort(new Error('gone'));
    expect(new DetachableChild(() => {}, turn.signal).signal.aborted).toBe(true);
  });

  it('no longer follows its parent turn once its run has ended', () => {
    const turn = new AbortController();
    const child = new DetachableChild(() => {}, turn.signal);
    child.ended();
    turn.abort(new Error('the turn ended'));
    expect(child.signal.aborted).toBe(false);
  });

  it('once moved, sends its events to the new sink and follows the new signal only', () => {
    const turn = new AbortController();
    const work = new AbortController();
    const first: AgentEvent[] = [];
    const second: AgentEvent[] = [];
    const child = new DetachableChild((e) => first.push(e), turn.signal);
    child.emit(event);
    child.moveTo((e) => second.push(e), work.signal);
    child.emit(event);
    turn.abort();
    expect(child.signal.aborted).toBe(false);
    work.abort();
    expect(child.signal.aborted).toBe(true);
    expect([first.length, second.length]).toEqual([1, 1]);
  });

  it('can be sent away only while it runs, and once', () => {
    const child = new DetachableChild(() => {}, new AbortController().signal);
    expect(child.detach()).toBe(false);
    child.running = true;
    expect(child.detach()).toBe(true);
    expect(child.detach()).toBe(false);
    expect(child.isDetached).toBe(true);
  });
});
