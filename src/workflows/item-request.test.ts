import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, itemRequest } from './item-request.js';

describe("an agent() call's resume key", () => {
  it('does not depend on the order of object keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
      }),
    );
  });

  it('changes with what is asked, never with the label or the time limit', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.string(),
        (prompt, other, label) => {
          const base = itemRequest(prompt, { agentType: 'explore' });
          expect(itemRequest(prompt, { agentType: 'explore', label, timeoutMs: 5 }).key).toBe(
            base.key,
          );
          if (other !== prompt)
            expect(itemRequest(other, { agentType: 'explore' }).key).not.toBe(base.key);
          expect(itemRequest(prompt, { agentType: 'plan' }).key).not.toBe(base.key);
          expect(itemRequest(prompt, { agentType: 'explore', model: 'haiku' }).key).not.toBe(
            base.key,
          );
          const schema = { type: 'object', properties: { a: { type: 'string' } } };
          expect(itemRequest(prompt, { agentType: 'explore', schema }).key).not.toBe(base.key);
          const high = itemRequest(prompt, { agentType: 'explore', effort: 'high' }).key;
          expect(high).not.toBe(base.key);
          expect(itemRequest(prompt, { agentType: 'explore', effort: 'low' }).key).not.toBe(high);
        },
      ),
    );
  });

  it.each([
    [{ timeoutMs: -1 }, 'timeoutMs'],
    [{ isolation: 'remote' }, 'isolation'],
    [{ effort: 'extreme' }, 'effort'],
    [{ schema: [] }, 'schema'],
    [{ extra: 1 }, 'Unrecognized key'],
  ])('refuses the options %j, naming the field', (options, field) => {
    expect(() => itemRequest('x', options)).toThrow(field);
  });
});
