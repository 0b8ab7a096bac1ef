// The slice clock long work asks between items: over once its slice has run its length, and the
// next slice starting when the turn is taken, not when it was asked for. A fake clock, turns let
// go by the test.
import { describe, expect, it } from 'vitest';
import { SliceClock } from '../../src/chains/slice-clock';
import { inTurn } from '../../src/chains/turns';

/** A clock the test moves, and turns it lets go one at a time. */
function fakes() {
  let time = 100;
  const waiting: (() => void)[] = [];
  let onAsk = () => {};
  return {
    now: () => time,
    advance: (ms: number) => (time += ms),
    turn: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        onAsk();
      }),
    /** Resolves when the next turn is asked for. */
    asked: () => new Promise<void>((resolve) => (onAsk = resolve)),
    waiting: () => waiting.length,
    letOneGo: () => waiting.shift()?.(),
  };
}

describe('slice clock', () => {
  it('is over exactly when the slice has run its length, from construction', () => {
    const f = fakes();
    const slice = new SliceClock(10, f);
    f.advance(9.999);
    expect(slice.over()).toBe(false);
    f.advance(0.001);
    expect(slice.over()).toBe(true);
  });

  it('yields once per slice over a run of items, and the next slice starts after the turn', async () => {
    const f = fakes();
    const slice = new SliceClock(10, f);
    const turnsAfter: number[] = [];
    const work = (async () => {
      for (let item = 1; item <= 8; item++) {
        f.advance(3);
        if (!slice.over()) continue;
        turnsAfter.push(item);
        await slice.next();
      }
    })();
    // Items 1-4 take 12 ms: the turn is asked for after the fourth, and nothing runs until it is taken.
    expect(turnsAfter).toEqual([4]);
    expect(f.waiting()).toBe(1);
    // The turn comes 50 ms later (other work): the new slice counts from then, not from the ask
    // (from the ask, item 5 would find it over).
    f.advance(50);
    const asked = f.asked();
    f.letOneGo();
    await asked;
    expect(turnsAfter).toEqual([4, 8]);
    f.letOneGo();
    await work;
    expect(f.waiting()).toBe(0);
  });

  it('with firstAfterTurn, has no slice until its first turn', async () => {
    const f = fakes();
    const slice = new SliceClock(10, { ...f, firstAfterTurn: true });
    expect(slice.over()).toBe(true);
    const next = slice.next();
    f.letOneGo();
    await next;
    expect(slice.over()).toBe(false);
    f.advance(10);
    expect(slice.over()).toBe(true);
  });

  it('takes its turn with nextTurn by default: work queued for a turn before it runs first', async () => {
    const f = fakes();
    const slice = new SliceClock(0, { now: f.now });
    const seen: string[] = [];
    inTurn(() => seen.push('queued before'));
    await slice.next().then(() => seen.push('new slice'));
    expect(seen).toEqual(['queued before', 'new slice']);
  });
});
