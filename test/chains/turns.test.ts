// Turns for long work: one waiter let go per turn of the event loop, in order for one client, the
// clients waiting taking turns.
import { describe, expect, it } from 'vitest';
import { asClient } from '../../src/chains/client-context';
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

  it('clients take turns: a client that queued three waits one turn, not three, for another\'s one', async () => {
    const seen: string[] = [];
    const waiters = [
      ...['a1', 'a2', 'a3'].map((name) => asClient('a', () => nextTurn().then(() => seen.push(name)))),
      asClient('b', () => nextTurn().then(() => seen.push('b1'))),
      asClient('a', () => nextTurn().then(() => seen.push('a4'))),
      asClient('c', () => nextTurn().then(() => seen.push('c1'))),
    ];
    await Promise.all(waiters);
    expect(seen).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
  });
});

