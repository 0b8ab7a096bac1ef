import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliverWork } from '../../../src/service/watch/backend';
import { MemoryBackend } from '../../../src/service/watch/memory-backend';
import { followAsync } from '../../support/follow-async';
import { backendContract, defaultOptions, eventOf, eventually, progressOf, watchOf } from './backend-contract';

backendContract('memory', async (options) => new MemoryBackend(options));

describe('memory watch backend', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('schedules a retry whose time passed during the try now, never with a negative delay (Node.js 24 warns of one)', async () => {
    // The next try counts from the start of the one before: a try (here cut) that took longer than the delay is due at once.
    const delays: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return real(fn, ms);
    }) as typeof setTimeout);
    // Only the clock is moved: the first try answers a second after it began (its retry was due 5 ms after).
    vi.useFakeTimers({ toFake: ['Date'] });
    let tries = 0;
    const deliver: DeliverWork = async () => {
      tries += 1;
      if (tries > 1) return { ok: true, code: 200 };
      vi.setSystemTime(Date.now() + 1_000);
      return { ok: false, code: 503, error: 'answered 503' };
    };
    const b = new MemoryBackend(defaultOptions());
    try {
      const w = watchOf();
      await b.add(w, progressOf(1, { ended: 'final' }), [eventOf(w, 0)]);
      const idle = followAsync(async () => undefined);
      b.start(idle, deliver);
      await eventually('delivered on the second try', async () => (await b.get(w.id))?.deliveries[0]?.state === 'delivered');
      expect(delays.filter((ms) => ms < 0)).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
