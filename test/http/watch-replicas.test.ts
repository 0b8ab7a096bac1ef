// Two service processes on one Redis, as replicas run: one is killed (SIGKILL) while it follows
// watches, the other carries them on from their recorded progress and delivers the rest; no
// `webhook-id` reaches the receiver as two different events; the killed one, restarted, finds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app';
import { DOT, signedTransfer } from '../helpers/transfer-status';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { builtServer, runServer, type ServerProcess } from '../support/built-server';
import { redisForTest } from '../support/redis-server';
import { startTestChain, type TestChain } from '../support/test-chain';
import { child, extrinsicSuccess, processed, sent } from '../support/xcm-events';

let polkadot: TestChain;
let assetHub: TestChain;
let receiver: Receiver;
let redis: Awaited<ReturnType<typeof redisForTest>>;
const servers: ServerProcess[] = [];
// Only builds and signs the transfers.
const builder = testApp();

beforeAll(async () => {
  [polkadot, assetHub, receiver, redis] = await Promise.all([startTestChain('Polkadot', { partialFee: 1_000_000n }), startTestChain('AssetHubPolkadot'), startReceiver(), redisForTest(), builtServer()]);
}, 120_000);

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  await builder.services.close();
  await Promise.all([receiver.close(), redis.stop(), polkadot.close(), assetHub.close()]);
});

async function replica(): Promise<{ server: ServerProcess; url: string }> {
  const server = await runServer({
    env: { REDIS_URL: redis.url, WATCH_LEASE_MS: '1000', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0' },
  });
  servers.push(server);
  return { server, url: await server.listening };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: { id: string } }> {
  const res = await fetch(`${url}/v5/x-transfer/watch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { id: string } };
}

describe('watches shared by replicas through Redis', () => {
  it('a replica killed mid-watch: the other delivers the rest, no id twice as two events; restarted, it finds its watches', async () => {
    // The first replica alone makes and follows every watch; the second comes up before the first dies.
    const first = await replica();
    const overrides = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
    const transfers = [];
    for (let i = 0; i < 4; i++) {
      const tx = await signedTransfer(builder.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String((60n + BigInt(i)) * DOT) } }, overrides);
      polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
      transfers.push(tx);
    }
    const ids: string[] = [];
    for (const tx of transfers) {
      const made = await post(first.url, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options: { development: true, apiOverrides: overrides }, webhook: { url: receiver.url, secret: receiver.secret } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids.push(made.body.id);
    }
    for (const id of ids) await receiver.eventsOf(id, 1);
    const second = await replica();

    first.server.child.kill('SIGKILL');
    expect(await first.server.exited).toBeNull();
    for (const tx of transfers) assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });

    for (const id of ids) {
      const events = await receiver.eventsOf(id, 2);
      expect(events.map((e) => [e.id, e.event.type]).slice(0, 2)).toEqual([
        [`${id}.0`, 'transfer.in-flight'],
        [`${id}.1`, 'transfer.delivered'],
      ]);
    }
    // At least once: an id may come again, but always as the same event.
    const bodies = new Map<string, Set<string>>();
    for (const post of receiver.accepted) bodies.set(post.id, (bodies.get(post.id) ?? new Set()).add(post.body));
    expect([...bodies.values()].filter((b) => b.size > 1)).toEqual([]);
    expect(receiver.forged).toBe(0);

    const restarted = await replica();
    for (const id of ids) {
      const res = await fetch(`${restarted.url}/v5/x-transfer/watch/${id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, state: 'final', status: { status: 'delivered' } });
    }
    // Their output is JSON log lines only, nothing worse than a warning.
    for (const server of [second.server, restarted.server]) expect(server.lines.filter((l) => l.stream === 'stderr' || !l.json || (l.json.level ?? 0) > 40)).toEqual([]);
  }, 120_000);
});
