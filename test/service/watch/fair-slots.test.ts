// The delivery slots (src/service/watch/fair-slots.ts) both watch backends share their tries out by:
// caps per owner and per receiver host, a slow lane for hosts that leave tries unanswered, and a
// freed slot to the owner served least recently.
import { describe, expect, it, vi } from 'vitest';
import { FairSlots, hostOf, type Slot, type SlotKey } from '../../../src/service/watch/fair-slots';

/** Asks for a slot for each key in order; `granted` lists the keys (as `owner/host`) in the order they got one. */
function asker(slots: FairSlots) {
  const granted: string[] = [];
  const held = new Map<string, Slot[]>();
  const ask = (key: SlotKey, signal?: AbortSignal) =>
    slots.acquire(key, signal).then((slot) => {
      const name = `${key.owner}/${key.host}`;
      granted.push(name);
      held.set(name, [...(held.get(name) ?? []), slot]);
    });
  /** Gives back the oldest slot held under `name`. */
  const free = (name: string) => {
    const slot = held.get(name)?.shift();
    if (!slot) throw new Error(`${name} holds no slot`);
    slot.release();
  };
  /** Whether the oldest slot held under `name` was cut. */
  const cut = (name: string) => held.get(name)?.[0]?.cut?.aborted;
  return { ask, free, cut, granted };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('fair delivery slots', () => {
  it('gives a freed slot to an owner that waited less recently served, not to the first that asked', async () => {
    const slots = new FairSlots({ total: 1, perOwner: 1, perHost: 1 });
    const { ask, free, granted } = asker(slots);
    for (let i = 0; i < 4; i++) void ask({ owner: 'a', host: `a${i}` });
    void ask({ owner: 'b', host: 'b0' });
    void ask({ owner: 'c', host: 'c0' });
    await flush();
    expect(granted).toEqual(['a/a0']);
    for (const name of ['a/a0', 'b/b0', 'c/c0', 'a/a1', 'a/a2']) {
      free(name);
      await flush();
    }
    expect(granted).toEqual(['a/a0', 'b/b0', 'c/c0', 'a/a1', 'a/a2', 'a/a3']);
  });

  it('keeps slots free for others past an owner\'s cap and a host\'s cap', async () => {
    const slots = new FairSlots({ total: 8, perOwner: 3, perHost: 2 });
    const { ask, granted } = asker(slots);
    // Owner a: 6 tries over two hosts; owner b: 5 tries to a host owner c shares.
    for (let i = 0; i < 6; i++) void ask({ owner: 'a', host: i % 2 === 0 ? 'x' : 'y' });
    for (let i = 0; i < 5; i++) void ask({ owner: 'b', host: 'z' });
    void ask({ owner: 'c', host: 'z' });
    await flush();
    // a: 2 to x and 1 to y (its cap of 3); b: 2 to z (the host's cap); c: nothing, z is full.
    expect([...granted].sort()).toEqual(['a/x', 'a/x', 'a/y', 'b/z', 'b/z']);
    expect([slots.running, slots.waiting]).toEqual([5, 7]);
    // A new owner and host goes at once: three slots are still free.
    expect(slots.tryAcquire({ owner: 'd', host: 'w' })?.release).toBeTypeOf('function');
    expect(slots.tryAcquire({ owner: 'a', host: 'w' })).toBeUndefined();
    expect(slots.tryAcquire({ owner: 'd', host: 'z' })).toBeUndefined();
  });

  it('a waiter whose signal aborts leaves the queue; slots given back are handed on', async () => {
    const slots = new FairSlots({ total: 1, perOwner: 1, perHost: 1 });
    const { ask, free, granted } = asker(slots);
    void ask({ owner: 'a', host: 'h' });
    const controller = new AbortController();
    const aborted = ask({ owner: 'b', host: 'h2' }, controller.signal);
    void ask({ owner: 'c', host: 'h3' });
    controller.abort(new Error('closing'));
    await expect(aborted).rejects.toThrow('closing');
    free('a/h');
    await flush();
    expect(granted).toEqual(['a/h', 'c/h3']);
    free('c/h3');
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });

  it('holds a host whose try had no answer in time to the slow lane\'s slots, until a try of its answers 2xx', async () => {
    const slots = new FairSlots({ total: 4, perOwner: 4, perHost: 4, slow: 1 });
    const { ask, free, granted } = asker(slots);
    slots.tried('hung', { ok: false, slow: true });
    // A fast non-2xx is an answer: that host stays in the fast lane.
    slots.tried('refusing', { ok: false });
    for (let i = 0; i < 3; i++) void ask({ owner: 'a', host: 'hung' });
    void ask({ owner: 'b', host: 'refusing' });
    void ask({ owner: 'b', host: 'refusing' });
    await flush();
    expect(granted).toEqual(['a/hung', 'b/refusing', 'b/refusing']);
    expect(slots.running).toBe(3);
    // Back in the fast lane, its waiting tries take the free slot, and the next one freed.
    slots.tried('hung', { ok: true });
    await flush();
    expect(granted).toEqual(['a/hung', 'b/refusing', 'b/refusing', 'a/hung']);
    free('b/refusing');
    await flush();
    expect(granted).toEqual(['a/hung', 'b/refusing', 'b/refusing', 'a/hung', 'a/hung']);
  });

  it('cuts a usual-lane try left unanswered for cutMs only while another owner waits for a slot, and moves its host to the slow lane', async () => {
    vi.useFakeTimers();
    try {
      const slots = new FairSlots({ total: 2, perOwner: 2, perHost: 2, slow: 1, cutMs: 1_000 });
      const x = slots.tryAcquire({ owner: 'a', host: 'x' })!;
      const y = slots.tryAcquire({ owner: 'a', host: 'y' })!;
      // Nobody waits: never cut, however long.
      await vi.advanceTimersByTimeAsync(60_000);
      expect([x.cut?.aborted, y.cut?.aborted]).toEqual([false, false]);
      // Its own owner waiting is no reason either.
      const { ask, free, cut, granted } = asker(slots);
      void ask({ owner: 'a', host: 'z' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect([x.cut?.aborted, y.cut?.aborted, granted]).toEqual([false, false, []]);
      y.release();
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toEqual(['a/z']);
      // Another owner waits: the try past cutMs is cut at once and its host is slow; the young one is not yet.
      void ask({ owner: 'b', host: 'w' });
      await vi.advanceTimersByTimeAsync(0);
      expect(x.cut?.aborted).toBe(true);
      x.release();
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toEqual(['a/z', 'b/w']);
      // x is in the slow lane (one slot): a try of it waits for that slot, not for a usual one.
      void ask({ owner: 'c', host: 'x' });
      await vi.advanceTimersByTimeAsync(0);
      free('b/w');
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toEqual(['a/z', 'b/w', 'c/x']);
      // Slots full again (a/z, c/x), d waits: a/z is cut once it comes of age; c/x, in the slow lane, never.
      void ask({ owner: 'd', host: 'v' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect([cut('a/z'), cut('c/x')]).toEqual([true, false]);
      free('a/z');
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toEqual(['a/z', 'b/w', 'c/x', 'd/v']);
      void ask({ owner: 'e', host: 'u' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(granted).toHaveLength(4);
      expect([cut('d/v'), cut('c/x')]).toEqual([true, false]);
      free('d/v');
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toEqual(['a/z', 'b/w', 'c/x', 'd/v', 'e/u']);
    } finally {
      vi.useRealTimers();
    }
  });

  it("cuts a try holding its host's cap when another owner's try to that host waits, though the process has free slots", async () => {
    vi.useFakeTimers();
    try {
      const slots = new FairSlots({ total: 8, perOwner: 8, perHost: 2, slow: 1, cutMs: 1_000 });
      const x1 = slots.tryAcquire({ owner: 'a', host: 'h' })!;
      const x2 = slots.tryAcquire({ owner: 'a', host: 'h' })!;
      const { ask, granted } = asker(slots);
      // Its own owner waiting behind the host's cap is no reason; another owner's try to another host goes at once.
      void ask({ owner: 'a', host: 'h' });
      void ask({ owner: 'b', host: 'k' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect([x1.cut?.aborted, x2.cut?.aborted, granted]).toEqual([false, false, ['b/k']]);
      // Another owner's try to h waits behind h's cap: the oldest try there is cut, one for one.
      void ask({ owner: 'b', host: 'h' });
      await vi.advanceTimersByTimeAsync(0);
      expect([x1.cut?.aborted, x2.cut?.aborted]).toEqual([true, false]);
      // The slot it frees goes to b (h is in the slow lane now, which has room), not to a's own waiting try.
      x1.release();
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toEqual(['b/k', 'b/h']);
      // Behind h's cap again, but the slow lane that h is in is full (b/h): cutting x2 would free no slot c could take.
      void ask({ owner: 'c', host: 'h' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect([x2.cut?.aborted, granted]).toEqual([false, ['b/k', 'b/h']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keys a receiver by its host name', () => {
    expect(hostOf('https://Hooks.Example.com:8443/x?token=1')).toBe('hooks.example.com');
    expect(hostOf('http://[::1]:9/')).toBe('[::1]');
  });
});
