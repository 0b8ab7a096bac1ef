// Watches with REDIS_URL: the same service over the test chains, its watches and delivery queue in a
// Redis of the test's own; two replicas on one Redis see the same watches, and each event reaches the
// receiver once.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app';
import { DOT, signedTransfer, until } from '../helpers/transfer-status';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { redisForTest } from '../support/redis-server';
import { startTestChain, type TestChain } from '../support/test-chain';
import { child, extrinsicSuccess, processed, sent } from '../support/xcm-events';

let polkadot: TestChain;
let assetHub: TestChain;
let overrides: Record<string, string>;
let receiver: Receiver;
let redis: Awaited<ReturnType<typeof redisForTest>>;
let replicas: ReturnType<typeof testApp>[];

beforeAll(async () => {
  [polkadot, assetHub, receiver, redis] = await Promise.all([startTestChain('Polkadot', { partialFee: 1_000_000n }), startTestChain('AssetHubPolkadot'), startReceiver(), redisForTest()]);
  overrides = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
  const settings = { REDIS_URL: redis.url, IDLE_TIMEOUT_MS: '200', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100', WATCH_LEASE_MS: '2000' };
  replicas = [testApp(settings), testApp(settings)];
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.services.close()));
  await Promise.all([receiver.close(), redis.stop(), polkadot.close(), assetHub.close()]);
});

let amount = 40n;

async function teleport() {
  const tx = await signedTransfer(replicas[0]!.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(amount++ * DOT) } }, overrides);
  polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
  const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options: { development: true, apiOverrides: overrides }, webhook: { url: receiver.url, secret: receiver.secret } };
  return { body, arrive: () => assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] }) };
}

describe('watches in Redis', () => {
  it('a watch made on one replica is read and delivered through the shared queue: each change once, in order', async () => {
    const [one, two] = replicas as [ReturnType<typeof testApp>, ReturnType<typeof testApp>];
    const { body, arrive } = await teleport();
    const made = await request(one.app).post('/v5/x-transfer/watch').send(body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id as string;
    await receiver.eventsOf(id, 1);
    // The other replica sees it (same client, same Redis).
    expect((await request(two.app).get(`/v2/x-transfer/watch/${id}`)).body).toMatchObject({ id, state: 'following', status: { status: 'in-flight' } });
    arrive();
    const events = await receiver.eventsOf(id, 2);
    expect(events.map((e) => [e.id, e.event.type])).toEqual([
      [`${id}.0`, 'transfer.in-flight'],
      [`${id}.1`, 'transfer.delivered'],
    ]);
    await until(() => receiver.accepted.filter((p) => p.id.startsWith(`${id}.`)).length === 2, 'no more deliveries');
    const ids = receiver.accepted.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(receiver.forged).toBe(0);
  });

  it('a receiver that is down gets every event when it is back, same ids; DELETE on another replica ends a watch', async () => {
    const [one, two] = replicas as [ReturnType<typeof testApp>, ReturnType<typeof testApp>];
    const { body, arrive } = await teleport();
    receiver.down = true;
    try {
      const id = (await request(one.app).post('/v5/x-transfer/watch').send(body)).body.id as string;
      await until(() => receiver.refused.some((p) => p.id === `${id}.0`), 'a refused try');
      arrive();
      receiver.down = false;
      expect((await receiver.eventsOf(id, 2)).map((e) => e.id)).toEqual([`${id}.0`, `${id}.1`]);
    } finally {
      receiver.down = false;
    }
    const other = (await request(one.app).post('/v5/x-transfer/watch').send(body)).body.id as string;
    expect((await request(two.app).delete(`/v5/x-transfer/watch/${other}`)).status).toBe(204);
    expect((await request(one.app).get(`/v5/x-transfer/watch/${other}`)).status).toBe(404);
  });

  it('/status says watches are kept in Redis', async () => {
    const res = await request(replicas[0]!.app).get('/status');
    expect(res.body.watches).toMatchObject({ backend: 'redis', kept: expect.stringMatching(/Redis/), counts: { open: expect.any(Number) } });
  });
});
