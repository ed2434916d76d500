import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages.js';
import { echoTool, throwingTool } from '../testing/stub-tools.js';
import { CACHE_LIFETIME_MS, PromptCacheGate, prefixKey } from './prompt-cache-gate.js';

const live = new AbortController().signal;
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  promise.then(() => (done = true)).catch(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  return done;
};

describe('the prompt cache gate', () => {
  it('lets the first request of a prefix go and holds the others until its response begins', async () => {
    const gate = new PromptCacheGate();
    const leader = await gate.enter('p', live);
    const sibling = gate.enter('p', live);
    const other = gate.enter('q', live);
    expect(await settled(sibling)).toBe(false);
    expect(await settled(other)).toBe(true);
    leader.started();
    expect(await settled(sibling)).toBe(true);
  });

  it('passes at once while the prefix is warm, and again leads once its lifetime is over', async () => {
    let now = 0;
    const gate = new PromptCacheGate({ now: () => now });
    (await gate.enter('p', live)).started();
    now += CACHE_LIFETIME_MS - 1;
    expect(await settled(gate.enter('p', live))).toBe(true);
    // That use renewed the lifetime.
    now += CACHE_LIFETIME_MS - 1;
    expect(await settled(gate.enter('p', live))).toBe(true);
    now += CACHE_LIFETIME_MS + 1;
    await gate.enter('p', live);
    expect(await settled(gate.enter('p', live))).toBe(false);
  });

  it('lets the waiting requests go when the first one fails', async () => {
    const gate = new PromptCacheGate();
    const leader = await gate.enter('p', live);
    const sibling = gate.enter('p', live);
    leader.failed();
    expect(await settled(sibling)).toBe(true);
  });

  it('stops waiting when the waiting request is cancelled', async () => {
    const gate = new PromptCacheGate();
    await gate.enter('p', live);
    const controller = new AbortController();
    const sibling = gate.enter('p', controller.signal);
    controller.abort();
    await expect(sibling).rejects.toThrow();
  });
});

describe('prefixKey', () => {
  const system = (content: string): Message => ({ role: 'system', content });
  const user = (content: string): Message => ({ role: 'user', content });

  it('is the same for the same tools and system prompt, whatever the conversation', () => {
    expect(prefixKey([echoTool], [system('S'), user('a')])).toBe(
      prefixKey([echoTool], [system('S'), user('b')]),
    );
  });

  it('differs with the tools, their order, or the system prompt', () => {
    const boom = throwingTool('Boom', new Error('boom'));
    const key = prefixKey([echoTool, boom], [system('S')]);
    expect(prefixKey([boom, echoTool], [system('S')])).not.toBe(key);
    expect(prefixKey([echoTool], [system('S')])).not.toBe(key);
    expect(prefixKey([echoTool, boom], [system('T')])).not.toBe(key);
  });
});
