// The follower's run slots: a herd of watches woken at once (a process taking watches over, a head
// watcher starting) reads a bounded number at a time, and another owner's watch is not queued behind
// the herd; the watches one read settles take their records in slices of the loop's turns. The
// status service is played by the test: each read waits until the test answers it, so that the reads
// in flight can be counted; the follower and its slots are the real ones.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { follower } from '../../../src/service/watch/follower';
import type { StatusService, Tracking } from '../../../src/service/status';
import { eventually, progressOf, watchOf } from './backend-contract';

const HERD_TX = `0x${'01'.repeat(32)}` as const;
const OTHER_TX = `0x${'02'.repeat(32)}` as const;

describe('follower run slots', () => {
  it('reads at most maxRuns watches at once and perOwner of one owner: a second owner reads while the first one\'s herd waits', async () => {
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const answers: (() => void)[] = [];
    const read: string[] = [];
    const status: Pick<StatusService, 'track' | 'wait'> = {
      track: async (request) => {
        const owner = request.txHash === HERD_TX ? 'ip:herd' : 'ip:other';
        read.push(owner);
        inFlight.set(owner, (inFlight.get(owner) ?? 0) + 1);
        most.set(owner, Math.max(most.get(owner) ?? 0, inFlight.get(owner)!));
        await new Promise<void>((resolve) => answers.push(resolve));
        inFlight.set(owner, inFlight.get(owner)! - 1);
        const answer = { status: 'delivered' as const, final: true, legs: [] };
        const tracking: Tracking = { answer: () => answer, settledAt: () => undefined, snapshot: () => ({ legs: [], notes: [] }), watching: () => false, release: () => undefined };
        return tracking;
      },
      wait: () => Promise.reject(new Error('no watch waits in this test')),
    };
    let done = 0;
    const follow = follower({
      status,
      backend: { advance: async () => true },
      logger: pino({ level: 'silent' }),
      firstBackoffMs: 10,
      maxBackoffMs: 10,
      maxRuns: { total: 6, perOwner: 4 },
    });
    // Each owner's transfers have an extrinsic of their own, so that the status service above can tell them apart.
    const watchFor = (owner: string) => {
      const watch = watchOf(owner);
      return { ...watch, request: { ...watch.request, txHash: owner === 'ip:herd' ? HERD_TX : OTHER_TX } };
    };
    for (let i = 0; i < 40; i++) follow(watchFor('ip:herd'), progressOf(0), () => done++);
    await eventually('the herd reading', () => answers.length === 4);
    follow(watchFor('ip:other'), progressOf(0), () => done++);
    await eventually('the other owner reading beside the herd', () => inFlight.get('ip:other') === 1);
    expect(inFlight.get('ip:herd')).toBe(4);
    while (done < 41) {
      answers.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(most.get('ip:herd')).toBe(4);
    expect(read.filter((owner) => owner === 'ip:herd')).toHaveLength(40);
  });

  it('the watches one read settles take their records in slices of the event loop\'s turns: a slice of 0 ms takes one a turn, a long one all three in one', async () => {
    for (const [sliceMs, inTurns] of [
      [0, 3],
      [60_000, 1],
    ] as const) {
      // The reads of one block finish together (they wait for the same block's parts): here, one promise.
      let settle!: () => void;
      const block = new Promise<void>((resolve) => (settle = resolve));
      const status: Pick<StatusService, 'track' | 'wait'> = {
        track: async () => {
          await block;
          const answer = { status: 'delivered' as const, final: true, legs: [] };
          const tracking: Tracking = { answer: () => answer, settledAt: () => undefined, snapshot: () => ({ legs: [], notes: [] }), watching: () => false, release: () => undefined };
          return tracking;
        },
        wait: () => Promise.reject(new Error('no watch waits in this test')),
      };
      // Counts the turns of the event loop (a check phase each) while the records are taken.
      let turn = 0;
      let counting = true;
      const tick = (): void => {
        turn++;
        if (counting) setImmediate(tick);
      };
      const turns: number[] = [];
      const follow = follower({
        status,
        backend: {
          advance: async () => {
            turns.push(turn);
            return true;
          },
        },
        logger: pino({ level: 'silent' }),
        firstBackoffMs: 10,
        maxBackoffMs: 10,
        sliceMs,
      });
      let done = 0;
      for (let i = 0; i < 3; i++) follow(watchOf('ip:herd'), progressOf(0), () => done++);
      setImmediate(tick);
      settle();
      await eventually('the three watches recorded', () => done === 3);
      counting = false;
      expect(turns).toHaveLength(3);
      expect(new Set(turns).size, `slices of ${sliceMs} ms: turns ${turns.join(', ')}`).toBe(inTurns);
    }
  });
});
