import pino from 'pino';
import { afterAll, beforeAll, describe } from 'vitest';
import { RedisBackend } from '../../../src/service/watch/redis-backend';
import { redisForTest } from '../../support/redis-server';
import { requiredProgram } from '../../support/required-program';
import { backendContract } from './backend-contract';

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
});
