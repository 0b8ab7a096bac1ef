import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowWork } from '../../../src/service/watch/backend';
import { followAsync } from '../../support/follow-async';
import { RedisBackend } from '../../../src/service/watch/redis-backend';
import { follower } from '../../../src/service/watch/follower';
import type { JourneySnapshot, StatusService, Waiting } from '../../../src/service/status';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { sealerFrom } from '../../../src/service/watch/sealing';
import { newSecret } from '../../../src/service/watch/signing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisForTest, startRedis, stopRedis } from '../../support/redis-server';
import { startRelay } from '../../support/relay';
import { requiredProgram } from '../../support/required-program';
import { backendContract, defaultOptions, eventOf, eventually, progressOf, watchOf } from './backend-contract';

/** Every value Redis holds under `prefix` (records and BullMQ's jobs), as text. */
async function rawUnder(url: string, prefix: string): Promise<string> {
  const client = new Redis(url);
  try {
    const keys = await client.keys(`${prefix}*`);
    const values = await Promise.all(
      keys.map(async (key) => {
        const type = await client.type(key);
        if (type === 'string') return client.get(key);
        if (type === 'hash') return client.hgetall(key);
        if (type === 'list') return client.lrange(key, 0, -1);
        if (type === 'set') return client.smembers(key);
        if (type === 'zset') return client.zrange(key, '0', '-1');
        if (type === 'stream') return client.xrange(key, '-', '+');
        return `${type}?`;
      }),
    );
    return JSON.stringify([keys, values]);
  } finally {
    client.disconnect();
  }
}

const hasRedis = requiredProgram('redis-server', 'redis-server', 'test/service/watch/redis-backend.test.ts');

describe.skipIf(!hasRedis)('watches in Redis', () => {
  let redis: Awaited<ReturnType<typeof redisForTest>> | undefined;
  beforeAll(async () => {
    redis = await redisForTest();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  // Each backend of a test gets keys and queues of its own under a prefix of its storage.
  backendContract('redis', async (options, storage) => {
    if (!redis) throw new Error('no redis');
    return new RedisBackend(redis.url, options, pino({ level: 'silent' }), `xcmgw:watch:${storage}:`);
  });

  it('with WATCH_ENCRYPTION_KEY, Redis holds no webhook secret or URL in clear; after a rotation, records sealed with the previous key still read and deliver', async () => {
    if (!redis) throw new Error('no redis');
    const url = redis.url;
    const [oldKey, newKey] = [randomBytes(32).toString('base64'), randomBytes(32).toString('hex')];
    const prefix = `xcmgw:watch:sealed${randomBytes(4).toString('hex')}:`;
    const backendWith = (keys: { WATCH_ENCRYPTION_KEY?: string; WATCH_ENCRYPTION_KEY_PREVIOUS?: string }) =>
      new RedisBackend(url, defaultOptions(), pino({ level: 'silent' }), prefix, sealerFrom(keys));
    const secretOf = (token: string) => ({ url: `https://hooks-${token}.example.com/xcm?token=${token}`, secret: newSecret() });
    const clear = (webhook: { url: string; secret: string }) => [webhook.url, webhook.secret, webhook.secret.slice('whsec_'.length), new URL(webhook.url).hostname, new URL(webhook.url).search];

    const unsealed = backendWith({});
    const before = { ...watchOf(), webhook: secretOf(randomBytes(8).toString('hex')) };
    const sealedOld = { ...watchOf(), webhook: secretOf(randomBytes(8).toString('hex')) };
    const sealedNew = { ...watchOf(), webhook: secretOf(randomBytes(8).toString('hex')) };
    const first = backendWith({ WATCH_ENCRYPTION_KEY: oldKey });
    const rotated = backendWith({ WATCH_ENCRYPTION_KEY: newKey, WATCH_ENCRYPTION_KEY_PREVIOUS: oldKey });
    try {
      // Without a key the record holds them in clear (what the docs say), which this test would see.
      expect(await unsealed.add(before, progressOf(1), [eventOf(before, 0)])).toBe('added');
      const raw = await rawUnder(url, prefix);
      for (const text of clear(before.webhook)) expect(raw).toContain(text);
      await unsealed.remove(before.id);

      expect(await first.add(sealedOld, progressOf(1), [eventOf(sealedOld, 0)])).toBe('added');
      expect(await rotated.add(sealedNew, progressOf(1), [eventOf(sealedNew, 0)])).toBe('added');
      const sealedRaw = await rawUnder(url, prefix);
      for (const text of [...clear(sealedOld.webhook), ...clear(sealedNew.webhook)]) expect(sealedRaw).not.toContain(text);
      expect(sealedRaw).toContain('sealed:v1:');

      // The rotated process reads both; the old one cannot read what the new key sealed.
      expect((await rotated.get(sealedOld.id))?.watch).toEqual(sealedOld);
      expect((await rotated.get(sealedNew.id))?.watch).toEqual(sealedNew);
      await expect(first.get(sealedNew.id)).rejects.toThrow(/key this process does not hold/);
      await first.close();

      // And delivers both, to the URL and with the secret as given.
      const sent = new Map<string, { url: string; secret: string }>();
      rotated.start(
        followAsync(async () => undefined),
        async (watch) => (sent.set(watch.id, watch.webhook), { ok: true, code: 200 }),
      );
      await eventually('both delivered', () => sent.size === 2);
      expect(sent).toEqual(new Map([[sealedOld.id, sealedOld.webhook], [sealedNew.id, sealedNew.webhook]]));
    } finally {
      await Promise.all([unsealed.close(), first.close(), rotated.close()]);
    }
  });

  it('counts the followed watches a previous version stored (before `held`), and frees their place when they end', async () => {
    if (!redis) throw new Error('no redis');
    const prefix = `xcmgw:watch:legacy${randomBytes(4).toString('hex')}:`;
    const legacy = watchOf('ip:old');
    const client = new Redis(redis.url);
    try {
      // What the earlier scripts wrote for one followed watch: `open` and `owners`, no `held`.
      await client
        .multi()
        .hset(`${prefix}w:${legacy.id}`, 'watch', JSON.stringify(legacy), 'progress', JSON.stringify(progressOf(0)), 'owner', 'ip:old', 'n', 0, 'head', 0, 'ended', '')
        .sadd(`${prefix}open`, legacy.id)
        .hincrby(`${prefix}owners`, 'ip:old', 1)
        .exec();
    } finally {
      client.disconnect();
    }
    const b = new RedisBackend(redis.url, defaultOptions({ maxWatches: 2, maxWatchesPerClient: 1 }), pino({ level: 'silent' }), prefix);
    try {
      const followed = new Set<string>();
      b.start(
        followAsync(async (w, _p, signal) => (followed.add(w.id), new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })))),
        async () => ({ ok: true, code: 200 }),
      );
      // Followed again once start() has looked at what Redis holds.
      await eventually('the old watch followed', () => followed.has(legacy.id));
      expect(await b.add(watchOf('ip:new'), progressOf(0), [])).toBe('added');
      expect(await b.add(watchOf('ip:third'), progressOf(0), [])).toBe('MAX_WATCHES');
      expect(await b.advance(legacy.id, progressOf(0, { ended: 'timeout' }), [])).toBe(true);
      expect(await b.add(watchOf('ip:old'), progressOf(0), [])).toBe('added');
    } finally {
      await b.close();
    }
  });

  it('hands its watches back when it closes, and another replica follows them at once, from their progress', async () => {
    if (!redis) throw new Error('no redis');
    const url = redis.url;
    // A lease far longer than the test: only a hand-back lets the second replica take the watches.
    const options = defaultOptions({ leaseMs: 600_000, maxWatches: 300, maxWatchesPerClient: 300 });
    const replica = () => new RedisBackend(url, options, pino({ level: 'silent' }), 'xcmgw:watch:handover:');
    const followed = (seen: Map<string, unknown>): FollowWork =>
      followAsync(async (watch, progress, signal) => {
        seen.set(watch.id, progress.resume);
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      });
    const first = replica();
    const second = replica();
    try {
      const byFirst = new Map<string, unknown>();
      first.start(followed(byFirst), async () => ({ ok: true, code: 200 }));
      const ids: string[] = [];
      for (let i = 0; i < 300; i++) {
        const watch = watchOf(`ip:${i % 3}`);
        expect(await first.add(watch, progressOf(0, { resume: `block ${i}` }), [])).toBe('added');
        ids.push(watch.id);
      }
      await eventually('the first replica following every watch', () => byFirst.size === ids.length);
      await first.close();
      const bySecond = new Map<string, unknown>();
      second.start(followed(bySecond), async () => ({ ok: true, code: 200 }));
      await eventually('the second replica following every watch', () => bySecond.size === ids.length);
      expect(bySecond).toEqual(new Map(ids.map((id, i) => [id, `block ${i}`])));
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('a replica whose lease lapsed lets go of its watches, another takes them, and it carries on under a new lease', async () => {
    if (!redis) throw new Error('no redis');
    const prefix = `xcmgw:watch:lapsed${randomBytes(4).toString('hex')}:`;
    // The stalled replica renews every 20 s: within the test it renews only when told of unfollowed watches.
    const options = (leaseMs: number) => defaultOptions({ leaseMs, maxWatches: 100, maxWatchesPerClient: 100 });
    const following = (seen: Map<string, string>, name: string): FollowWork =>
      followAsync(async (watch, _progress, signal) => {
        seen.set(watch.id, name);
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        if (seen.get(watch.id) === name) seen.delete(watch.id);
      });
    const stalled = new RedisBackend(redis.url, options(60_000), pino({ level: 'silent' }), prefix);
    const other = new RedisBackend(redis.url, options(300), pino({ level: 'silent' }), prefix);
    const client = new Redis(redis.url);
    try {
      const byStalled = new Map<string, string>();
      stalled.start(following(byStalled, 'stalled'), async () => ({ ok: true, code: 200 }));
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const watch = watchOf(`ip:${i % 2}`);
        expect(await stalled.add(watch, progressOf(0), [])).toBe('added');
        ids.push(watch.id);
      }
      await eventually('the first replica following every watch', () => byStalled.size === ids.length);
      const [lapsed] = await client.zrange(`${prefix}followers`, '0', '-1');
      const byOther = new Map<string, string>();
      other.start(following(byOther, 'other'), async () => ({ ok: true, code: 200 }));
      // As if its process had stalled past its lease: the other replica reaps it and takes its watches.
      await client.zadd(`${prefix}followers`, 0, lapsed!);
      await eventually('the other replica following every watch', () => byOther.size === ids.length);
      // Its next renewal (here: when told of unfollowed watches) finds its lease gone: it lets go of
      // its watches and renews under a new token, following what it is given from then on.
      await client.publish(`${prefix}unfollowed`, '');
      await eventually('the lapsed replica following none', () => byStalled.size === 0);
      await eventually('two leases, neither the lapsed one', async () => {
        const tokens = await client.zrange(`${prefix}followers`, '0', '-1');
        return tokens.length === 2 && !tokens.includes(lapsed!);
      });
      await other.close();
      await eventually('the first replica following every watch again', () => byStalled.size === ids.length);
      expect(await stalled.counts()).toEqual({ open: ids.length, ended: 0, queued: 0 });
    } finally {
      client.disconnect();
      await Promise.all([stalled.close(), other.close()]);
    }
  });

  it('records where waiting watches stand, in batches, so that a replica taking them over does not read again the blocks passed over', async () => {
    if (!redis) throw new Error('no redis');
    const prefix = `xcmgw:watch:positions${randomBytes(4).toString('hex')}:`;
    const b = new RedisBackend(redis.url, defaultOptions({ maxWatches: 1_000, maxWatchesPerClient: 1_000 }), pino({ level: 'silent' }), prefix);
    // The head watcher is played here: every waiting watch is checked for up to `passedTo` - 1.
    let passedTo = 5;
    const waiting: Waiting = {
      take: () => undefined,
      holds: () => true,
      caughtUp: (snapshot) => ({ ...snapshot, cursor: { ...snapshot.cursor!, next: Math.max(snapshot.cursor!.next!, passedTo) } }),
      covered: true,
      close: () => undefined,
    };
    const status: Pick<StatusService, 'track' | 'wait'> = {
      track: () => Promise.reject(new Error('a covered watch reads nothing until a block is offered')),
      wait: async () => waiting,
    };
    const follow = follower({ status, backend: b, logger: pino({ level: 'silent' }), firstBackoffMs: 10, maxBackoffMs: 10, saveEveryMs: 50 });
    const at = (next: number): JourneySnapshot => ({ legs: [], notes: [], cursor: { leg: 1, chain: 'AssetHubPolkadot', next } });
    const nextOf = async (id: string) => ((await b.get(id))?.progress.resume as JourneySnapshot | undefined)?.cursor?.next;
    try {
      b.start(follow, async () => ({ ok: true, code: 200 }));
      // More than one script's batch (500).
      const ids: string[] = [];
      for (let i = 0; i < 700; i++) {
        const watch = watchOf(`ip:${i % 7}`);
        expect(await b.add(watch, progressOf(0, { resume: at(5) }), [])).toBe('added');
        ids.push(watch.id);
      }
      passedTo = 40;
      await eventually('every position recorded past the blocks passed over', async () => (await Promise.all(ids.map(nextOf))).every((next) => next === 40));
      // Nothing else changed: no event, still followed.
      expect(await b.counts()).toEqual({ open: ids.length, ended: 0, queued: 0 });
    } finally {
      await b.close();
    }
  });

  it('answers with an error while Redis is away instead of waiting, works again once it is back, and closes without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xcm-redis-'));
    const socket = join(dir, 'redis.sock');
    const relay = await startRelay(socket);
    let server = await startRedis(socket);
    const backend = new RedisBackend(`redis://127.0.0.1:${relay.port}`, defaultOptions(), pino({ level: 'silent' }), 'xcmgw:watch:away:');
    try {
      backend.start(
        followAsync(async () => undefined),
        async () => ({ ok: true, code: 200 }),
      );
      expect(await backend.add(watchOf(), progressOf(0), [])).toBe('added');
      await stopRedis(server);
      await expect(backend.add(watchOf(), progressOf(0), [])).rejects.toThrow();
      await expect(backend.counts()).rejects.toThrow();
      server = await startRedis(socket);
      await eventually('Redis back', async () => (await backend.add(watchOf(), progressOf(0), []).catch(() => 'not yet')) === 'added');
      expect((await backend.counts()).open).toBe(1);
      // Closing while Redis is away again lets go of the watches a lease later.
      await stopRedis(server);
      await backend.close();
    } finally {
      await backend.close();
      await stopRedis(server);
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
