import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowWork } from '../../../src/service/watch/backend';
import { RedisBackend } from '../../../src/service/watch/redis-backend';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisForTest, startRedis, stopRedis } from '../../support/redis-server';
import { startRelay } from '../../support/relay';
import { requiredProgram } from '../../support/required-program';
import { backendContract, defaultOptions, eventually, progressOf, watchOf } from './backend-contract';

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

  it('hands its watches back when it closes, and another replica follows them at once, from their progress', async () => {
    if (!redis) throw new Error('no redis');
    const url = redis.url;
    // A lease far longer than the test: only a hand-back lets the second replica take the watches.
    const options = defaultOptions({ leaseMs: 600_000, maxWatches: 300, maxWatchesPerClient: 300 });
    const replica = () => new RedisBackend(url, options, pino({ level: 'silent' }), 'xcmgw:watch:handover:');
    const followed = (seen: Map<string, unknown>): FollowWork => async (watch, progress, signal) => {
      seen.set(watch.id, progress.resume);
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    };
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

  it('answers with an error while Redis is away instead of waiting, and works again once it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xcm-redis-'));
    const socket = join(dir, 'redis.sock');
    const relay = await startRelay(socket);
    let server = await startRedis(socket);
    const backend = new RedisBackend(`redis://127.0.0.1:${relay.port}`, defaultOptions(), pino({ level: 'silent' }), 'xcmgw:watch:away:');
    try {
      backend.start(async () => undefined, async () => ({ ok: true, code: 200 }));
      expect(await backend.add(watchOf(), progressOf(0), [])).toBe('added');
      await stopRedis(server);
      await expect(backend.add(watchOf(), progressOf(0), [])).rejects.toThrow();
      await expect(backend.counts()).rejects.toThrow();
      server = await startRedis(socket);
      await eventually('Redis back', async () => (await backend.add(watchOf(), progressOf(0), []).catch(() => 'not yet')) === 'added');
      expect((await backend.counts()).open).toBe(1);
    } finally {
      await backend.close();
      await stopRedis(server);
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
