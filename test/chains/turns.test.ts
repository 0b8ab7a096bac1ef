// Turns for long work: one waiter let go per turn of the event loop, in order, whoever queued it.
import { describe, expect, it } from 'vitest';
import { inTurn, nextTurn } from '../../src/chains/turns';

const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('turns', () => {
  it('lets one waiter go per turn: work queued with setImmediate meanwhile runs between them', async () => {
    const seen: string[] = [];
    const waiters = ['a', 'b', 'c'].map((name) => nextTurn().then(() => seen.push(name)));
    setImmediate(() => seen.push('other'));
    await Promise.all(waiters);
    expect(seen).toEqual(['a', 'other', 'b', 'c']);
  });

  it('work and promises share one queue, in the order they came', async () => {
    const seen: string[] = [];
    inTurn(() => seen.push('socket frame'));
    const slice = nextTurn().then(() => seen.push('decode slice'));
    inTurn(() => seen.push('another frame'));
    await slice;
    expect(seen).toEqual(['socket frame', 'decode slice']);
    await immediate();
    expect(seen).toEqual(['socket frame', 'decode slice', 'another frame']);
  });
});
