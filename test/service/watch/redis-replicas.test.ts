// Replicas sharing one Redis, as processes: one is killed with SIGKILL mid-watch and another carries
// its watches on from the recorded progress; a restarted replica finds the watches; no webhook id is
// delivered as two different bodies. The replicas are test/fixtures/watch-replica.cjs (the compiled
// Redis backend with a pretend chain); the service itself can stand in for it: both listen, take
// watches over HTTP, and POST their events to the webhook URL.
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root';
import { RedisBackend } from '../../../src/service/watch/redis-backend';
import { builtServer, runServer, type OutputLine, type ServerProcess } from '../../support/built-server';
import { redisForTest } from '../../support/redis-server';
import { requiredProgram } from '../../support/required-program';
import { defaultOptions, eventually, progressOf, watchOf } from './backend-contract';

const hasRedis = requiredProgram('redis-server', 'redis-server', 'test/service/watch/redis-replicas.test.ts');

const PREFIX = 'xcmgw:watch:replicas:';
const LEASE_MS = 1_000;
const LAST_BLOCK = 5;
/** The warning of a replica whose lease lapsed (it stalled past it) and went to another replica. */
const LEASE_LOST = 'watch lease lost: other replicas take its watches';

/**
 * The warnings of a replica the machine stalled (a busy 2-core machine starves a fresh process for
 * seconds): its lease lapsed, or a Redis command went 2 s unanswered. The backend carries on from
 * both; the test checks what it promises then (one body per event, every event delivered).
 */
const stalled = (line: OutputLine): boolean =>
  line.json?.level === 40 && (line.json.msg === LEASE_LOST || (line.json.msg === 'watch requeue failed' && String(line.json.err) === 'Command timed out'));

interface Received {
  id: string;
  body: string;
  replica: string;
}

/** A webhook receiver that refuses the first try of each event, so that events are retried across the kills too. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const refused = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!refused.has(id)) {
        refused.add(id);
        res.writeHead(503).end();
        return;
      }
      received.push({ id, body, replica: String(req.headers['x-replica']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

describe.skipIf(!hasRedis)('watch replicas sharing one Redis', () => {
  let redis: Awaited<ReturnType<typeof redisForTest>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let observer: RedisBackend;
  const replicas: ServerProcess[] = [];

  beforeAll(async () => {
    redis = await redisForTest();
    receiver = await startReceiver();
    // Reads the shared state; never started, so it takes no work.
    observer = new RedisBackend(redis.url, defaultOptions(), pino({ level: 'silent' }), PREFIX);
  }, 120_000);

  afterAll(async () => {
    for (const replica of replicas) replica.child.kill('SIGKILL');
    await Promise.all(replicas.map((r) => r.exited));
    await observer?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
    await redis?.stop();
  });

  async function replica(name: string, head: number): Promise<{ process: ServerProcess; url: string }> {
    const build = dirname(dirname(await builtServer()));
    const process = await runServer({
      server: join(projectRoot(), 'test/fixtures/watch-replica.cjs'),
      env: { XCMGW_BUILD: build, REPLICA: name, REDIS_URL: redis.url, WATCH_PREFIX: PREFIX, WATCH_LEASE_MS: String(LEASE_MS), LAST_BLOCK: String(LAST_BLOCK), HEAD: String(head) },
    });
    replicas.push(process);
    return { process, url: await process.listening };
  }

  const post = async (url: string, body: unknown): Promise<number> =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;

  const kill = async (process: ServerProcess): Promise<void> => {
    process.child.kill('SIGKILL');
    await process.exited;
  };

  const progressOfAll = async (ids: string[]) => Promise.all(ids.map(async (id) => (await observer.get(id))?.progress));
  const allAt = (ids: string[], block: number) => async () => (await progressOfAll(ids)).every((p) => p?.resume === block && p.events === block);

  it('carries on the watches of a killed replica from its recorded progress, and a restarted one finds them', async () => {
    const a = await replica('a', 0);
    const ids: string[] = [];
    const addThrough = async (url: string) => {
      const watch = { ...watchOf('ip:127.0.0.1'), webhook: { url: receiver.url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } };
      expect(await post(`${url}/watches`, { watch, progress: progressOf(0) })).toBe(201);
      ids.push(watch.id);
    };
    // Three watches while `a` is alone (it follows them), three more once `b` serves too.
    for (let i = 0; i < 3; i++) await addThrough(a.url);
    const b = await replica('b', 0);
    for (let i = 0; i < 3; i++) await addThrough(b.url);

    for (const head of [1, 2]) await Promise.all([a, b].map((r) => post(`${r.url}/head`, { head })));
    await eventually('every watch at block 2', allAt(ids, 2));

    await kill(a.process);
    await post(`${b.url}/head`, { head: 3 });
    await eventually('every watch at block 3, those of the killed replica too', allAt(ids, 3));

    const a2 = await replica('a2', 3);
    await kill(b.process);
    for (const head of [4, 5]) await post(`${a2.url}/head`, { head });
    await eventually('every watch ended with its events delivered', async () =>
      (await Promise.all(ids.map((id) => observer.get(id)))).every((v) => v?.progress.ended === 'final' && v.deliveries.every((d) => d.state === 'delivered')),
    );

    // A replica stalled past its lease loses its watches to another replica: it says so, and the
    // records keep that from making any event twice. Which live replica made an event can change only then.
    const lines = replicas.flatMap((r) => r.lines);
    const lost = new Set(lines.filter((l) => l.json?.msg === LEASE_LOST).map((l) => String(l.json?.replica)));
    // Each event id reached the receiver, always with one body: block n is event n - 1, made by the
    // replica that followed the watch when the chain reached it.
    const bodies = new Map<string, Set<string>>();
    for (const r of receiver.received) bodies.set(r.id, (bodies.get(r.id) ?? new Set()).add(r.body));
    const madeBy = (id: string, seq: number): unknown => {
      const seen = [...(bodies.get(`${id}.${seq}`) ?? [])];
      expect(seen, `${id}.${seq}`).toHaveLength(1);
      const { data } = JSON.parse(seen[0] ?? '{}') as { data: { block: number; by: string } };
      expect(data.block).toBe(seq + 1);
      return data.by;
    };
    expect(bodies.size).toBe(ids.length * LAST_BLOCK);
    for (const [i, id] of ids.entries()) {
      const first = madeBy(id, 0);
      const second = madeBy(id, 1);
      expect(['a', 'b']).toContain(first);
      if (i < 3 && !lost.has('a')) expect(first).toBe('a');
      if (!lost.has(String(first))) expect(second).toBe(first);
      // `a` was killed: `b`, alone until block 3 was made, made it.
      expect(madeBy(id, 2)).toBe('b');
      expect(madeBy(id, 3)).toBe('a2');
      expect(madeBy(id, 4)).toBe('a2');
    }
    expect(await observer.counts()).toEqual({ open: 0, ended: ids.length, queued: 0 });
    // Only JSON lines, and nothing worse than the replicas' own news (a stall is news).
    expect(lines.filter((l) => l.stream === 'stderr' || !l.json || ((l.json.level ?? 0) > 30 && !stalled(l)))).toEqual([]);
  }, 120_000);
});
