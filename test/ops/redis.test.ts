import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app';
import { createOps, type Ops } from '../../src/ops';
import { createServices } from '../../src/service';
import { testConfig } from '../helpers/app';
import { startRedis, stopRedis } from '../support/redis-server';
import { startRelay, type Relay } from '../support/relay';
import { requiredProgram } from '../support/required-program';

const hasRedis = requiredProgram('redis-server', 'redis-server', 'test/ops/redis.test.ts');

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Forgets every count, so that each test starts from a fresh window whatever ran before it. */
async function emptyRedis(port: number): Promise<void> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
  try {
    await client.connect();
    await client.flushall();
  } finally {
    client.disconnect();
  }
}

/** One service instance (a replica): its own app, services and Redis client. */
function replica(redisUrl: string): { app: ReturnType<typeof createApp>; ops: Ops; logs: string[]; close(): Promise<void> } {
  const config = testConfig({ REDIS_URL: redisUrl, RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_CHAIN_PER_MINUTE: '0' });
  const logger = pino({ level: 'silent' });
  const services = createServices(config, logger);
  const logs: string[] = [];
  const ops = createOps(config, pino({ level: 'info' }, { write: (line: string) => logs.push(line) }));
  return { app: createApp({ config, logger, services, ops }), ops, logs, close: async () => (await ops.close(), await services.close()) };
}

describe.skipIf(!hasRedis)('rate limits shared through Redis', () => {
  let dir: string;
  let socket: string;
  let relay: Relay;
  let port: number;
  let redis: ChildProcess;
  let a: ReturnType<typeof replica>;
  let b: ReturnType<typeof replica>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xcm-redis-'));
    socket = join(dir, 'redis.sock');
    relay = await startRelay(socket);
    port = relay.port;
    redis = await startRedis(socket);
    a = replica(`redis://127.0.0.1:${port}`);
    b = replica(`redis://127.0.0.1:${port}`);
    await until('both replicas on Redis', () => a.ops.counters.state === 'redis' && b.ops.counters.state === 'redis');
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (redis) await stopRedis(redis);
    await relay?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('two replicas enforce one combined limit', async () => {
    await emptyRedis(port);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await request(i % 2 ? b.app : a.app).get('/v2/chains')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const status = await request(a.app).get('/status').set('x-forwarded-for', '1.2.3.4');
    expect(status.status).toBe(429);
  });

  it('keeps serving with per-replica counters while Redis is down, says so, and goes back when it returns', async () => {
    await stopRedis(redis);
    await until('fallback', () => a.ops.counters.state === 'fallback' && b.ops.counters.state === 'fallback');

    // Each replica now counts alone from zero: 6 each, 12 in all (/status is one of replica a's).
    const status = await request(a.app).get('/status').expect(200);
    expect(status.body).toMatchObject({ redis: 'unreachable', rateLimits: { counters: 'fallback' } });
    expect(status.text).not.toContain(String(port));
    for (let i = 0; i < 5; i++) await request(a.app).get('/v2/chains').expect(200);
    await request(a.app).get('/v2/chains').expect(429);
    for (let i = 0; i < 6; i++) await request(b.app).get('/v2/chains').expect(200);
    await request(b.app).get('/v2/chains').expect(429);
    const metrics = (await request(a.app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('xcm_gateway_rate_limit_counter_store{state="fallback"} 1');
    expect(metrics).toContain('xcm_gateway_rate_limit_counter_store{state="redis"} 0');
    expect(a.logs.filter((l) => l.includes('Redis is unreachable: rate limits are counted per replica'))).toHaveLength(1);

    redis = await startRedis(socket);
    await until('back on Redis', () => a.ops.counters.state === 'redis' && b.ops.counters.state === 'redis');
    // A fresh Redis holds no counts: the combined limit applies again.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await request(i % 2 ? b.app : a.app).get('/v2/chains')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect((await request(a.app).get('/metrics')).text).toContain('xcm_gateway_rate_limit_counter_store{state="redis"} 1');
    expect(a.logs.filter((l) => l.includes('rate-limit counters are shared through Redis'))).toHaveLength(2);
  });
});

describe('Redis unreachable from the start', () => {
  it('serves with per-replica counters and says so once', async () => {
    // A held port with no Redis behind it: every connection is reset.
    const relay = await startRelay(join(tmpdir(), `xcm-no-redis-${process.pid}.sock`));
    const r = replica(`redis://127.0.0.1:${relay.port}`);
    try {
      await until('a failed connect', () => r.logs.length > 0);
      for (let i = 0; i < 6; i++) await request(r.app).get('/v2/chains').expect(200);
      await request(r.app).get('/v2/chains').expect(429);
      expect(r.ops.counters.state).toBe('fallback');
      expect(r.logs.filter((l) => l.includes('Redis is unreachable'))).toHaveLength(1);
    } finally {
      await r.close();
      await relay.close();
    }
  });
});
