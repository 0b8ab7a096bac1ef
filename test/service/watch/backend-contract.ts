// The promises every watch backend keeps (src/service/watch/backend.ts), run against each backend by
// its own test file: bounds, get/remove, compare-and-set progress, delivery in order per watch with
// retries, giving up, cancelling, the follow lifecycle and the in-flight bound.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendOptions, DeliverWork, RetryPolicy, WatchBackend } from '../../../src/service/watch/backend';
import { followAsync } from '../../support/follow-async';
import type { DeliveryResult, Watch, WatchEvent, WatchProgress } from '../../../src/service/watch/model';

/** Makes a backend with these options over fresh storage; `shared` backends of one test see the same storage. */
export type MakeBackend = (options: BackendOptions, storage: string) => Promise<WatchBackend>;

/** Retries in milliseconds, so that a test sees several tries quickly. */
export const fastRetry = (giveUpAfterMs = 60_000): RetryPolicy => ({ delayMs: () => 5, giveUpAfterMs });

export const defaultOptions = (over: Partial<BackendOptions> = {}): BackendOptions => ({
  maxWatches: 50,
  maxWatchesPerClient: 10,
  maxDeliveries: 8,
  maxDeliveriesPerClient: 8,
  maxDeliveriesPerHost: 8,
  retainMs: 60_000,
  retainPerClient: 100,
  retainBytesPerClient: 1024 * 1024,
  leaseMs: 1_000,
  retry: fastRetry(),
  ...over,
});

export function watchOf(owner = 'ip:127.0.0.1', id = randomBytes(12).toString('base64url')): Watch {
  const now = Date.now();
  return {
    id,
    owner,
    request: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, options: { development: false, apiOverrides: {} } },
    webhook: { url: 'http://127.0.0.1:1/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    createdAt: now,
    expiresAt: now + 3_600_000,
  };
}

export const progressOf = (events: number, over: Partial<WatchProgress> = {}): WatchProgress => ({
  status: { status: 'in-flight', final: false, legs: [] },
  events,
  ...over,
});

export function eventOf(watch: Watch, seq: number, type = `transfer.step${seq}`): WatchEvent {
  const id = `${watch.id}.${seq}`;
  return { id, seq, type, body: JSON.stringify({ type, timestamp: '2026-11-27T00:00:00Z', data: { seq } }) };
}

/** Polls until `check` holds (bounded): the backends' state changes on timers and other processes. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How a receiver that never answers ends: its try cut (`signal` aborted), or `hold` (the test's end). */
const cutOrEnd = (signal: AbortSignal | undefined, hold: Promise<void>): Promise<'cut' | 'end'> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve('cut');
    signal?.addEventListener('abort', () => resolve('cut'), { once: true });
    void hold.then(() => resolve('end'));
  });

/** Six owners' watches, each at eight receiver hosts of its own (hung-<owner>-<host>.example), one event owed each. */
async function addHungHosts(b: WatchBackend): Promise<void> {
  for (let owner = 0; owner < 6; owner++) {
    for (let host = 0; host < 8; host++) {
      const w = { ...watchOf(`ip:${owner}`), webhook: { ...watchOf().webhook, url: `http://hung-${owner}-${host}.example/hook` } };
      await b.add(w, progressOf(1), [eventOf(w, 0)]);
    }
  }
}

interface Try {
  eventId: string;
  attempt: number;
  body: string;
}

/** A receiver that refuses each event's first `failures[eventId]` tries (or every try with `Infinity`). */
function receiver(failures: Record<string, number> = {}, hold?: Promise<void>) {
  const tries: Try[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const deliver: DeliverWork = async (_watch, event, attempt) => {
    tries.push({ eventId: event.id, attempt, body: event.body });
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    try {
      if (hold) await hold;
      const refusals = failures[event.id] ?? 0;
      const result: DeliveryResult = attempt <= refusals ? { ok: false, code: 503, error: 'HTTP 503' } : { ok: true, code: 200 };
      return result;
    } finally {
      inFlight -= 1;
    }
  };
  return {
    deliver,
    tries,
    delivered: () => tries.map((t) => t.eventId),
    mostInFlight: () => mostInFlight,
    inFlight: () => inFlight,
  };
}

const idle = followAsync(
  async (_watch, _progress, signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
);

export function backendContract(name: string, make: MakeBackend): void {
  describe(`${name} watch backend: the WatchBackend contract`, () => {
    const made: WatchBackend[] = [];
    const backend = async (over: Partial<BackendOptions> = {}, storage = randomBytes(6).toString('hex')): Promise<WatchBackend> => {
      const b = await make(defaultOptions(over), storage);
      made.push(b);
      return b;
    };
    afterEach(async () => {
      await Promise.all(made.splice(0).map((b) => b.close()));
    });

    it('refuses a watch past MAX_WATCHES_PER_CLIENT or MAX_WATCHES; ended (owing nothing) and removed watches free their place', async () => {
      const b = await backend({ maxWatches: 3, maxWatchesPerClient: 2 });
      const [a1, a2, a3] = [watchOf('ip:a'), watchOf('ip:a'), watchOf('ip:a')];
      expect(await b.add(a1, progressOf(0), [])).toBe('added');
      expect(await b.add(a2, progressOf(0), [])).toBe('added');
      expect(await b.add(a3, progressOf(0), [])).toBe('MAX_WATCHES_PER_CLIENT');
      expect(await b.add(watchOf('ip:b'), progressOf(0), [])).toBe('added');
      expect(await b.add(watchOf('ip:c'), progressOf(0), [])).toBe('MAX_WATCHES');
      expect(await b.counts()).toEqual({ open: 3, ended: 0, queued: 0 });

      expect(await b.remove(a1.id)).toBe(true);
      expect(await b.advance(a2.id, progressOf(0, { ended: 'final' }), [])).toBe(true);
      expect((await b.counts()).open).toBe(1);
      expect(await b.add(a3, progressOf(0), [])).toBe('added');
      expect(await b.add(watchOf('ip:a'), progressOf(0), [])).toBe('added');
      expect(await b.add(watchOf('ip:c'), progressOf(0), [])).toBe('MAX_WATCHES');
    });

    it('counts a watch owing deliveries against both bounds until they settle, one already final when made included', async () => {
      const b = await backend({ maxWatches: 3, maxWatchesPerClient: 2 });
      // Final when made: one event owed, nothing to follow.
      const final = (owner: string) => {
        const w = watchOf(owner);
        return b.add(w, progressOf(1, { ended: 'final' }), [eventOf(w, 0, 'transfer.delivered')]);
      };
      expect(await final('ip:a')).toBe('added');
      expect(await final('ip:a')).toBe('added');
      expect(await final('ip:a')).toBe('MAX_WATCHES_PER_CLIENT');
      expect(await final('ip:b')).toBe('added');
      expect(await final('ip:c')).toBe('MAX_WATCHES');
      expect(await b.counts()).toEqual({ open: 0, ended: 3, queued: 3 });
      // Delivered: they no longer count, and stay readable.
      const r = receiver();
      b.start(idle, r.deliver);
      await eventually('every event delivered', async () => (await b.counts()).queued === 0);
      expect(await final('ip:a')).toBe('added');
      expect(await final('ip:c')).toBe('added');
      expect((await b.counts()).ended).toBe(5);
    });

    it('keeps an owner\'s ended records within retainPerClient and retainBytesPerClient, forgetting the oldest first', async () => {
      const r = receiver();
      const ended = async (b: WatchBackend, owner: string, url = 'http://127.0.0.1:1/hook') => {
        const w = { ...watchOf(owner), webhook: { ...watchOf().webhook, url } };
        expect(await b.add(w, progressOf(1, { ended: 'final' }), [eventOf(w, 0)])).toBe('added');
        await eventually('the event delivered', async () => (await b.get(w.id))?.deliveries[0]?.state === 'delivered');
        return w.id;
      };
      const byCount = await backend({ retainPerClient: 3 });
      byCount.start(idle, r.deliver);
      const a: string[] = [];
      for (let i = 0; i < 5; i++) a.push(await ended(byCount, 'ip:a'));
      const other = await ended(byCount, 'ip:b');
      const kept = async (b: WatchBackend, ids: string[]) => Promise.all(ids.map(async (id) => (await b.get(id)) !== undefined));
      expect(await kept(byCount, [...a, other])).toEqual([false, false, true, true, true, true]);
      expect((await byCount.counts()).ended).toBe(4);

      // Records of about 2.5 KB (a long URL) within 6,000 bytes: two are kept.
      const bySize = await backend({ retainBytesPerClient: 6_000 });
      bySize.start(idle, r.deliver);
      const long = `http://127.0.0.1:1/hook?pad=${'x'.repeat(2_000)}`;
      const big: string[] = [];
      for (let i = 0; i < 4; i++) big.push(await ended(bySize, 'ip:a', long));
      expect(await kept(bySize, big)).toEqual([false, false, true, true]);
    });

    it('keeps a watch as given and forgets it once removed', async () => {
      const b = await backend();
      const w = watchOf();
      const events = [eventOf(w, 0, 'transfer.in-flight')];
      expect(await b.add(w, progressOf(1, { resume: { cursor: 7 } }), events)).toBe('added');
      const view = await b.get(w.id);
      expect(view?.watch).toEqual(w);
      expect(view?.progress).toEqual(progressOf(1, { resume: { cursor: 7 } }));
      expect(view?.deliveries).toEqual([{ eventId: `${w.id}.0`, type: 'transfer.in-flight', state: 'waiting', attempts: 0 }]);
      expect(await b.counts()).toEqual({ open: 1, ended: 0, queued: 1 });

      expect(await b.get('no-such-watch')).toBeUndefined();
      expect(await b.remove(w.id)).toBe(true);
      expect(await b.get(w.id)).toBeUndefined();
      expect(await b.remove(w.id)).toBe(false);
      expect(await b.counts()).toEqual({ open: 0, ended: 0, queued: 0 });
    });

    it('records progress only from the event count it was read at, and never after the end', async () => {
      const b = await backend();
      const w = watchOf();
      await b.add(w, progressOf(1), [eventOf(w, 0)]);
      // Two followers read the watch at 1 event; the first to record wins, the other's event is refused.
      expect(await b.advance(w.id, progressOf(2, { resume: 'mine' }), [eventOf(w, 1)])).toBe(true);
      expect(await b.advance(w.id, progressOf(2, { resume: 'theirs' }), [eventOf(w, 1, 'transfer.other')])).toBe(false);
      expect(await b.advance(w.id, progressOf(2, { resume: 'cursor only' }), [])).toBe(true);
      expect((await b.get(w.id))?.progress.resume).toBe('cursor only');
      expect(await b.advance(w.id, progressOf(3, { ended: 'final' }), [eventOf(w, 2)])).toBe(true);
      expect(await b.advance(w.id, progressOf(3), [])).toBe(false);
      expect(await b.advance('no-such-watch', progressOf(1), [])).toBe(false);
      const view = await b.get(w.id);
      expect(view?.progress.ended).toBe('final');
      expect(view?.deliveries.map((d) => d.type)).toEqual(['transfer.step0', 'transfer.step1', 'transfer.step2']);
      expect(await b.counts()).toMatchObject({ open: 0, ended: 1 });
    });

    it('delivers the events of a watch in order, each after the one before it, retrying refused tries', async () => {
      const b = await backend();
      const w = watchOf();
      const events = [0, 1, 2].map((seq) => eventOf(w, seq));
      const r = receiver({ [events[0]!.id]: 2, [events[1]!.id]: 1 });
      await b.add(w, progressOf(2), events.slice(0, 2));
      b.start(idle, r.deliver);
      expect(await b.advance(w.id, progressOf(3), events.slice(2))).toBe(true);
      await eventually('three deliveries', async () => (await b.get(w.id))?.deliveries.every((d) => d.state === 'delivered') ?? false);

      expect(r.tries.map((t) => [t.eventId.slice(w.id.length), t.attempt])).toEqual([
        ['.0', 1],
        ['.0', 2],
        ['.0', 3],
        ['.1', 1],
        ['.1', 2],
        ['.2', 1],
      ]);
      // A retry sends the same body.
      expect(new Set(r.tries.filter((t) => t.eventId === events[0]!.id).map((t) => t.body))).toEqual(new Set([events[0]!.body]));
      const deliveries = (await b.get(w.id))?.deliveries;
      expect(deliveries?.map((d) => [d.attempts, d.lastCode])).toEqual([
        [3, 200],
        [2, 200],
        [1, 200],
      ]);
      expect(deliveries?.[0]?.lastError).toBeUndefined();
      expect(await b.counts()).toMatchObject({ queued: 0 });
    });

    it('records an event as failed once the retry policy gives up, and the next event goes', async () => {
      const b = await backend({ retry: { delayMs: () => 5, giveUpAfterMs: 30 } });
      const w = watchOf();
      const events = [eventOf(w, 0), eventOf(w, 1)];
      const r = receiver({ [events[0]!.id]: Infinity });
      await b.add(w, progressOf(2), events);
      b.start(idle, r.deliver);
      await eventually('the second event delivered', async () => (await b.get(w.id))?.deliveries[1]?.state === 'delivered');
      const [first, second] = (await b.get(w.id))?.deliveries ?? [];
      expect(first).toMatchObject({ state: 'failed', lastCode: 503, lastError: 'HTTP 503' });
      expect(first?.attempts).toBeGreaterThanOrEqual(1);
      expect(first?.nextAt).toBeUndefined();
      expect(second).toMatchObject({ state: 'delivered', attempts: 1 });
      expect(r.tries.filter((t) => t.eventId === events[1]!.id)).toHaveLength(1);
      expect(r.tries.findIndex((t) => t.eventId === events[1]!.id)).toBe(r.tries.length - 1);
    });

    it('shows a refused event as retrying with its next try, and removing the watch stops its tries and its follower', async () => {
      const b = await backend({ retry: { delayMs: () => 200, giveUpAfterMs: 60_000 } });
      const w = watchOf();
      const r = receiver({ [`${w.id}.0`]: Infinity });
      const aborted: string[] = [];
      const follow = followAsync(
        async (watch, _progress, signal) =>
          new Promise<void>((resolve) => signal.addEventListener('abort', () => (aborted.push(watch.id), resolve()), { once: true })),
      );
      await b.add(w, progressOf(2), [eventOf(w, 0), eventOf(w, 1)]);
      b.start(follow, r.deliver);
      await eventually('a refused try', async () => (await b.get(w.id))?.deliveries[0]?.state === 'retrying');
      const view = await b.get(w.id);
      expect(view?.deliveries[0]).toMatchObject({ attempts: 1, lastCode: 503 });
      expect(view?.deliveries[0]?.nextAt).toBeGreaterThan(view?.deliveries[0]?.lastAt ?? Infinity);
      expect(view?.deliveries[1]).toMatchObject({ state: 'waiting', attempts: 0 });

      expect(await b.remove(w.id)).toBe(true);
      await eventually('the follower aborted', () => aborted.includes(w.id));
      const triesAtRemoval = r.tries.length;
      // A watch made after the removal, refused more often than the removed one's retry delay: once
      // it is delivered, the removed watch's next try would have come.
      const later = watchOf();
      const r2Failures = { [`${later.id}.0`]: 3 };
      const r2 = receiver(r2Failures);
      const b2 = await backend({ retry: { delayMs: () => 100, giveUpAfterMs: 60_000 } });
      await b2.add(later, progressOf(1), [eventOf(later, 0)]);
      b2.start(idle, r2.deliver);
      await eventually('the later watch delivered', async () => (await b2.get(later.id))?.deliveries[0]?.state === 'delivered');
      expect(r.tries).toHaveLength(triesAtRemoval);
      expect(await b.counts()).toEqual({ open: 0, ended: 0, queued: 0 });
    });

    it('hands each open watch to the follow work with its progress, which records events and the end', async () => {
      const b = await backend();
      const w = watchOf();
      const r = receiver();
      const seen: WatchProgress[] = [];
      const follow = followAsync(async (watch, progress) => {
        seen.push(progress);
        expect(await b.advance(watch.id, { ...progress, events: progress.events + 1, resume: 'block 9' }, [eventOf(watch, progress.events)])).toBe(true);
        expect(await b.advance(watch.id, { ...progress, events: progress.events + 2, ended: 'final' }, [eventOf(watch, progress.events + 1, 'transfer.delivered')])).toBe(true);
      });
      await b.add(w, progressOf(1, { resume: 'block 7' }), [eventOf(w, 0)]);
      b.start(follow, r.deliver);
      await eventually('three deliveries', () => r.tries.length === 3);
      expect(seen).toEqual([progressOf(1, { resume: 'block 7' })]);
      expect(r.delivered()).toEqual([0, 1, 2].map((seq) => `${w.id}.${seq}`));
      await eventually('the watch ended', async () => (await b.counts()).ended === 1);
      expect(await b.counts()).toEqual({ open: 0, ended: 1, queued: 0 });
    });

    it('follows again, after the lease, a watch whose follow work stopped without ending it', async () => {
      const b = await backend({ leaseMs: 50 });
      const w = watchOf();
      let runs = 0;
      const follow = followAsync(async (watch, progress) => {
        runs += 1;
        if (runs === 1) throw new Error('node went away');
        if (runs === 2) return;
        await b.advance(watch.id, { ...progress, ended: 'timeout' }, []);
      });
      await b.add(w, progressOf(0), []);
      b.start(follow, receiver().deliver);
      await eventually('the watch ended', async () => (await b.get(w.id))?.progress.ended === 'timeout');
      expect(runs).toBe(3);
    });

    it('forgets an ended watch once its events are settled and its retention passed', async () => {
      const b = await backend({ retainMs: 100 });
      const w = watchOf();
      const r = receiver();
      await b.add(w, progressOf(1, { ended: 'final' }), [eventOf(w, 0, 'transfer.delivered')]);
      expect(await b.counts()).toEqual({ open: 0, ended: 1, queued: 1 });
      b.start(idle, r.deliver);
      await eventually('the watch forgotten', async () => (await b.get(w.id)) === undefined);
      expect(r.delivered()).toEqual([`${w.id}.0`]);
      expect(await b.counts()).toEqual({ open: 0, ended: 0, queued: 0 });
    });

    it('shares delivery slots between owners: with other owners\' receivers hanging, a new owner\'s first try goes at once', async () => {
      // Two owners' receivers never answer (until the end of the test); a third owner comes later.
      // They owe more webhooks than a process takes on at once (with Redis: 4 jobs per slot).
      let release = (): void => undefined;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const running = new Map<string, number>();
      const most = new Map<string, number>();
      const started: string[] = [];
      const deliver: DeliverWork = async (watch) => {
        started.push(watch.owner);
        running.set(watch.owner, (running.get(watch.owner) ?? 0) + 1);
        most.set(watch.owner, Math.max(most.get(watch.owner) ?? 0, running.get(watch.owner) ?? 0));
        try {
          if (watch.owner !== 'ip:late') await hold;
          return { ok: true, code: 200 };
        } finally {
          running.set(watch.owner, (running.get(watch.owner) ?? 0) - 1);
        }
      };
      const b = await backend({ maxDeliveries: 6, maxDeliveriesPerClient: 2, maxDeliveriesPerHost: 6, maxWatches: 100, maxWatchesPerClient: 40 });
      try {
        for (const owner of ['ip:a', 'ip:b']) {
          for (let i = 0; i < 20; i++) {
            const w = { ...watchOf(owner), webhook: { ...watchOf().webhook, url: `http://hung-${owner.slice(3)}-${i}.example/hook` } };
            await b.add(w, progressOf(1), [eventOf(w, 0)]);
          }
        }
        b.start(idle, deliver);
        await eventually('the hung owners at their cap', () => running.get('ip:a') === 2 && running.get('ip:b') === 2);
        const late = watchOf('ip:late');
        await b.add(late, progressOf(1), [eventOf(late, 0)]);
        // Every try of the first two owners still hangs: the late owner's went out on a slot they could not take.
        await eventually('the late owner delivered', async () => (await b.get(late.id))?.deliveries[0]?.state === 'delivered');
        expect(started.filter((o) => o !== 'ip:late')).toHaveLength(4);
        expect([most.get('ip:a'), most.get('ip:b')]).toEqual([2, 2]);
      } finally {
        release();
      }
    });

    it('puts receivers that leave tries unanswered in a slow lane: hung hosts of 6 owners x 8 hold its slots, a new owner\'s first try goes', async () => {
      // Each hung host's first try has no answer in time (what the sender tells of a timeout); its
      // retries then hang until the end of the test. The owners' caps together (6 x 4) pass the 16 slots.
      let release = (): void => undefined;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const unanswered = new Set<string>();
      let hung = 0;
      let mostHung = 0;
      const deliver: DeliverWork = async (watch) => {
        if (watch.owner === 'ip:late') return { ok: true, code: 200 };
        const host = new URL(watch.webhook.url).hostname;
        if (!unanswered.has(host)) {
          unanswered.add(host);
          return { ok: false, error: `no answer from ${host} within 10000 ms`, slow: true };
        }
        mostHung = Math.max(mostHung, ++hung);
        await hold;
        hung -= 1;
        return { ok: true, code: 200 };
      };
      const b = await backend({ maxDeliveries: 16, maxDeliveriesPerClient: 4, maxDeliveriesPerHost: 4, maxWatches: 100, maxWatchesPerClient: 40 });
      try {
        await addHungHosts(b);
        b.start(idle, deliver);
        // The slow lane is an eighth of the slots: 2.
        await eventually('every hung host tried once and the slow lane full', () => unanswered.size === 48 && hung === 2);
        const late = watchOf('ip:late');
        await b.add(late, progressOf(1), [eventOf(late, 0)]);
        await eventually('the late owner delivered', async () => (await b.get(late.id))?.deliveries[0]?.state === 'delivered');
        expect(mostHung).toBe(2);
      } finally {
        release();
      }
    });

    it('cuts tries of hosts not yet known to hang when another owner waits: 6 owners x 8 hung hosts hold every slot, a new owner\'s first try goes before any deadline', async () => {
      // Each receiver hangs until its try is cut (what the sender then tells: unanswered, `slow`) or the
      // end of the test: no try reaches its deadline here. The owners' caps together (6 x 4) pass the
      // 16 slots; no host is known to hang yet, so the slow lane cannot help by itself.
      let release = (): void => undefined;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const cut: { host: string; attempt: number }[] = [];
      let hung = 0;
      let ended = 0;
      const deliver: DeliverWork = async (watch, _event, attempt, signal) => {
        if (watch.owner === 'ip:late') return { ok: true, code: 200 };
        const host = new URL(watch.webhook.url).hostname;
        hung += 1;
        try {
          const why = await cutOrEnd(signal, hold);
          if (why === 'end') return { ok: false, error: 'the test ended' };
          cut.push({ host, attempt });
          return { ok: false, error: `no answer from ${host} (cut)`, slow: true };
        } finally {
          hung -= 1;
          ended += 1;
        }
      };
      const b = await backend({ maxDeliveries: 16, maxDeliveriesPerClient: 4, maxDeliveriesPerHost: 4, maxWatches: 100, maxWatchesPerClient: 40, deliveryCutMs: 100 });
      try {
        await addHungHosts(b);
        b.start(idle, deliver);
        await eventually('every slot held by a hung try', () => hung === 16);
        const late = watchOf('ip:late');
        await b.add(late, progressOf(1), [eventOf(late, 0)]);
        await eventually('the late owner delivered', async () => (await b.get(late.id))?.deliveries[0]?.state === 'delivered');
        // Every hung try that ended was cut, each a host's first (its retries are in the slow lane, with the full deadline).
        expect(cut.length).toBeGreaterThan(0);
        expect(cut).toHaveLength(ended);
        expect(cut.every((c) => c.attempt === 1)).toBe(true);
        expect(new Set(cut.map((c) => c.host)).size).toBe(cut.length);
      } finally {
        release();
      }
    });

    it("cuts a hung try holding its host's cap when another owner's webhook to that host waits: receivers of two clients on one host", async () => {
      // One owner's six receivers on shared.example hang until their tries are cut (or the test ends) and
      // hold the host's cap (4); the process has slots free, so only the host's cap holds the other owner back.
      let release = (): void => undefined;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const cut: { owner: string; attempt: number }[] = [];
      let hung = 0;
      const deliver: DeliverWork = async (watch, _event, attempt, signal) => {
        if (watch.owner === 'ip:late') return { ok: true, code: 200 };
        hung += 1;
        try {
          const why = await cutOrEnd(signal, hold);
          if (why === 'end') return { ok: false, error: 'the test ended' };
          cut.push({ owner: watch.owner, attempt });
          return { ok: false, error: 'no answer from shared.example (cut)', slow: true };
        } finally {
          hung -= 1;
        }
      };
      const b = await backend({ maxDeliveries: 16, maxDeliveriesPerClient: 8, maxDeliveriesPerHost: 4, deliveryCutMs: 100 });
      try {
        for (let path = 0; path < 6; path++) {
          const w = { ...watchOf('ip:hung'), webhook: { ...watchOf().webhook, url: `http://shared.example/hung-${path}` } };
          await b.add(w, progressOf(1), [eventOf(w, 0)]);
        }
        b.start(idle, deliver);
        await eventually("the host's cap held by hung tries", () => hung === 4);
        const late = { ...watchOf('ip:late'), webhook: { ...watchOf().webhook, url: 'http://shared.example/late' } };
        await b.add(late, progressOf(1), [eventOf(late, 0)]);
        await eventually('the late owner delivered', async () => (await b.get(late.id))?.deliveries[0]?.state === 'delivered');
        // One hung try was cut for it, a first try; the hung owner's own waiting tries cut none.
        expect(cut).toEqual([{ owner: 'ip:hung', attempt: 1 }]);
      } finally {
        release();
      }
    });

    it('keeps at most maxDeliveries tries in flight, and close() stops followers', async () => {
      let release = (): void => undefined;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const b = await backend({ maxDeliveries: 2 });
      const r = receiver({}, hold);
      const watches = [0, 1, 2, 3, 4].map(() => watchOf('ip:many'));
      for (const w of watches) await b.add(w, progressOf(1), [eventOf(w, 0)]);
      let follows = 0;
      let aborts = 0;
      const follow = followAsync(async (_w, _p, signal) => {
        follows += 1;
        return new Promise<void>((resolve) => signal.addEventListener('abort', () => (aborts++, resolve()), { once: true }));
      });
      b.start(follow, r.deliver);
      await eventually('two tries in flight', () => r.inFlight() === 2);
      release();
      await eventually('every event delivered', async () => (await b.counts()).queued === 0);
      expect(r.mostInFlight()).toBe(2);
      expect(new Set(r.delivered())).toEqual(new Set(watches.map((w) => `${w.id}.0`)));
      await eventually('every watch followed', () => follows === watches.length);
      await b.close();
      expect(aborts).toBe(watches.length);
    });
  });
}
