// The decode budget counts a client's decodes over the last minute, apart per client, and says
// when the oldest leaves the window (Retry-After). The HTTP face: test/http/decode-budget.test.ts.
import { describe, expect, it } from 'vitest';
import { DecodeBudget } from '../../src/chains/decode-budget';
import { TooManyDecodesError } from '../../src/errors';

describe('DecodeBudget', () => {
  it('refuses a client its decode past the minute\'s, until its oldest is a minute old; other clients and 0 are not bounded', () => {
    let now = 1_000_000;
    const budget = new DecodeBudget(2, () => now);
    budget.spend('mallory');
    now += 10_000;
    budget.spend('mallory');
    now += 10_000;
    const refused = (() => {
      try {
        budget.spend('mallory');
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(TooManyDecodesError);
    expect((refused as TooManyDecodesError).status).toBe(429);
    expect((refused as TooManyDecodesError).headers).toEqual({ 'Retry-After': '40' });
    budget.spend('alice');
    now += 40_001; // the first decode left the window: one more
    budget.spend('mallory');
    expect(() => budget.spend('mallory')).toThrow(TooManyDecodesError);

    const unbounded = new DecodeBudget(0, () => now);
    for (let i = 0; i < 100; i++) unbounded.spend('mallory');
  });
});
