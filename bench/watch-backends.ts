// What keeping watches costs each backend, apart from following them (the follow work here only
// waits for its signal) and from sending webhooks (the deliver work answers 200 at once):
// memory per open watch (heap and RSS in this process, used_memory in Redis), the time to add and
// hand out 10,000 watches, idle CPU with them open (lease renewals), deliveries per second, close()
// and, with Redis, how long after a SIGKILL another replica takes the dead one's watches.
// Run: npx tsc -p tsconfig.json && node_modules/.bin/node --expose-gc dist/bench/watch-backends.js
// (BENCH_PART=retained: the retained records only; BENCH_PART=takeover: the SIGKILL takeovers only).
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Redis } from 'ioredis';
import { projectRoot } from '../src/project-root';
import type { BackendOptions, WatchBackend } from '../src/service/watch/backend';
import { MemoryBackend } from '../src/service/watch/memory-backend';
import type { Watch, WatchProgress } from '../src/service/watch/model';
import { RedisBackend } from '../src/service/watch/redis-backend';
import { builtServer, runServer } from '../test/support/built-server';
import { followAsync } from '../test/support/follow-async';
import { redisForTest } from '../test/support/redis-server';

const WATCHES = Number(process.env.BENCH_WATCHES ?? 10_000);
const IDLE_MS = 20_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const logger = pino({ level: 'warn' });
const progress = (events: number): WatchProgress => ({ status: { status: 'in-flight', final: false, legs: [] }, events, resume: events });

const options = (leaseMs: number): BackendOptions => ({
  maxWatches: WATCHES,
  maxWatchesPerClient: WATCHES,
  maxDeliveries: 64,
  maxDeliveriesPerClient: 64,
  maxDeliveriesPerHost: 64,
  retainMs: 3_600_000,
  retainPerClient: WATCHES,
  retainBytesPerClient: 1024 ** 3,
  leaseMs,
  retry: { delayMs: () => 50, giveUpAfterMs: 60_000 },
});

const watchOf = (i: number, url = 'https://example.com/hook'): Watch => ({
  id: `bench${i}x${Math.random().toString(36).slice(2, 12)}`,
  owner: `ip:10.0.${i % 250}.1`,
  request: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, options: { development: false, apiOverrides: {} } },
  webhook: { url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  createdAt: Date.now(),
  expiresAt: Date.now() + 3_600_000,
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(20);
}

async function redisMemory(url?: string): Promise<number> {
  if (!url) return 0;
  const client = new Redis(url);
  try {
    return Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1] ?? 0);
  } finally {
    client.disconnect();
  }
}

async function measure(name: string, backend: WatchBackend, redisUrl?: string): Promise<void> {
  let followed = 0;
  let delivered = 0;
  backend.start(
    followAsync(async (_watch, _progress, signal) => {
      followed += 1;
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }),
    async () => ((delivered += 1), { ok: true, code: 200 }),
  );
  await sleep(500);
  gc();
  const [rss0, heap0, redis0] = [process.memoryUsage().rss, process.memoryUsage().heapUsed, await redisMemory(redisUrl)];
  const started = Date.now();
  const watches: Watch[] = [];
  for (let i = 0; i < WATCHES; i += 100) {
    const batch = Array.from({ length: Math.min(100, WATCHES - i) }, (_, j) => watchOf(i + j));
    watches.push(...batch);
    await Promise.all(batch.map((w) => backend.add(w, progress(0), [])));
  }
  const added = Date.now() - started;
  await until(() => followed >= WATCHES);
  const handedOut = Date.now() - started;
  gc();
  await sleep(300);
  gc();
  const perWatch = (before: number, after: number) => `${((after - before) / WATCHES / 1024).toFixed(1)} KiB`;
  const memory = `heap ${perWatch(heap0, process.memoryUsage().heapUsed)}, RSS ${perWatch(rss0, process.memoryUsage().rss)}${redisUrl ? `, Redis ${perWatch(redis0, await redisMemory(redisUrl))}` : ''}`;
  const cpu = process.cpuUsage();
  await sleep(IDLE_MS);
  const idle = process.cpuUsage(cpu);
  const deliverFrom = Date.now();
  for (let i = 0; i < WATCHES; i += 100) {
    await Promise.all(
      watches.slice(i, i + 100).map((w) => backend.advance(w.id, progress(1), [{ id: `${w.id}.0`, seq: 0, type: 'transfer.in-flight', body: '{"type":"transfer.in-flight"}' }])),
    );
  }
  await until(() => delivered >= WATCHES);
  const deliverMs = Date.now() - deliverFrom;
  const closeFrom = Date.now();
  await backend.close();
  console.log(
    `${name}: ${WATCHES} open watches: ${memory} per watch; added in ${added} ms, all followed after ${handedOut} ms; ` +
      `idle CPU ${((idle.user + idle.system) / 1000 / (IDLE_MS / 1000)).toFixed(1)} ms/s; ${Math.round(WATCHES / (deliverMs / 1000))} deliveries/s; close ${Date.now() - closeFrom} ms`,
  );
}

/**
 * Ended records (issue 33): one client makes 3,000 watches already final when made (an unknown
 * block hash: one `transfer.not-found` webhook each, delivered at once), under the default bounds
 * on ended records (WATCH_RETAIN_PER_CLIENT 500, WATCH_RETAIN_BYTES_PER_CLIENT 2 MiB): how many are
 * kept, and the memory each costs.
 */
async function retained(name: string, make: (options: BackendOptions) => WatchBackend, redisUrl?: string): Promise<void> {
  const MADE = 3_000;
  const backend = make({ ...options(30_000), maxWatchesPerClient: 100, retainPerClient: 500, retainBytesPerClient: 2 * 1024 ** 2 });
  backend.start(
    followAsync(async () => undefined),
    async () => ({ ok: true, code: 200 }),
  );
  const status = { status: 'not-found', final: true, legs: [{ chain: 'Polkadot', role: 'origin', state: 'not-found', events: [] }] } as unknown as WatchProgress['status'];
  await sleep(500);
  gc();
  const [heap0, redis0] = [process.memoryUsage().heapUsed, await redisMemory(redisUrl)];
  for (let i = 0; i < MADE; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async (_, j) => {
        const w = { ...watchOf(i + j), owner: 'ip:10.1.1.1', request: { ...watchOf(0).request, txHash: `0x${randomBytes(32).toString('hex')}` as const, blockHash: `0x${randomBytes(32).toString('hex')}` as const } };
        const body = JSON.stringify({ type: 'transfer.not-found', timestamp: new Date().toISOString(), data: status });
        const added = await backend.add(w, { status, events: 1, ended: 'final' }, [{ id: `${w.id}.0`, seq: 0, type: 'transfer.not-found', body }]);
        if (added !== 'added') throw new Error(added);
      }),
    );
    await untilAsync(async () => (await backend.counts()).queued === 0);
  }
  gc();
  await sleep(300);
  gc();
  const kept = (await backend.counts()).ended;
  const per = (before: number, after: number) => `${((after - before) / kept / 1024).toFixed(1)} KiB`;
  console.log(
    `${name}: ${MADE} watches final when made, by one client: ${kept} records kept; heap ${per(heap0, process.memoryUsage().heapUsed)}` +
      `${redisUrl ? `, Redis ${per(redis0, await redisMemory(redisUrl))}` : ''} per kept record`,
  );
  await backend.close();
}

async function untilAsync(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(5);
}

/** A replica (test/fixtures/watch-replica.cjs) follows 100 watches and is killed; how long until this process follows them. */
async function takeover(redisUrl: string, leaseMs: number): Promise<void> {
  const build = dirname(dirname(await builtServer()));
  const prefix = `xcmgw:watch:takeover${leaseMs}:`;
  const env = { XCMGW_BUILD: build, REPLICA: 'a', REDIS_URL: redisUrl, WATCH_PREFIX: prefix, WATCH_LEASE_MS: String(leaseMs), LAST_BLOCK: '5', HEAD: '0' };
  const dead = await runServer({ server: join(projectRoot(), 'test/fixtures/watch-replica.cjs'), env });
  const url = await dead.listening;
  for (let i = 0; i < 100; i++) {
    await fetch(`${url}/watches`, { method: 'POST', body: JSON.stringify({ watch: watchOf(i, 'http://127.0.0.1:1/'), progress: progress(0) }) });
  }
  await until(() => dead.lines.filter((l) => l.json?.msg === 'following').length >= 100);
  const survivor = new RedisBackend(redisUrl, { ...options(leaseMs), maxWatches: 1_000, maxWatchesPerClient: 1_000 }, logger, prefix);
  const taken: number[] = [];
  let killedAt = Infinity;
  survivor.start(
    followAsync(async (_w, _p, signal) => {
      taken.push(Date.now() - killedAt);
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }),
    async () => ({ ok: true, code: 200 }),
  );
  await sleep(leaseMs);
  killedAt = Date.now();
  dead.child.kill('SIGKILL');
  await until(() => taken.length >= 100);
  taken.sort((a, b) => a - b);
  console.log(`redis: lease ${leaseMs} ms: a SIGKILLed replica's 100 watches followed by another after ${taken[0]} to ${taken.at(-1)} ms`);
  await survivor.close();
}

async function main(): Promise<void> {
  console.log(`Node.js ${process.version}`);
  await retained('memory', (o) => new MemoryBackend(o));
  if (process.env.BENCH_PART === 'retained') {
    const redis = await redisForTest();
    await retained('redis', (o) => new RedisBackend(redis.url, o, logger, 'xcmgw:watch:retained:'), redis.url);
    await redis.stop();
    return;
  }
  if (process.env.BENCH_PART === 'takeover') {
    const redis = await redisForTest();
    for (const lease of [1_000, 3_000]) await takeover(redis.url, lease);
    await redis.stop();
    return;
  }
  await measure('memory', new MemoryBackend(options(30_000)));
  const redis = await redisForTest();
  try {
    await retained('redis', (o) => new RedisBackend(redis.url, o, logger, 'xcmgw:watch:retained:'), redis.url);
    await measure('redis', new RedisBackend(redis.url, options(30_000), logger), redis.url);
    for (const lease of [1_000, 3_000]) await takeover(redis.url, lease);
  } finally {
    await redis.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
