// Whose budgets a watch's work spends: its follow work and its deliveries run outside any request
// (BullMQ workers with Redis; the memory backend's queue and timers), on behalf of the watch's
// owner. A client-named connection is keyed by its client, so the node tells: the follow work
// borrows the very connection the owner's request opened, and opens none of its own. A delivery's
// name lookup counts against its owner's DNS_MAX_LOOKUPS_PER_CLIENT, not one bound shared by all.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createApp } from '../../src/http/app';
import { createServices } from '../../src/service';
import { testApp, testConfig } from '../helpers/app';
import { DOT, signedTransfer, until } from '../helpers/transfer-status';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { redisForTest } from '../support/redis-server';
import { startTestChain } from '../support/test-chain';
import { child, extrinsicSuccess, processed, sent } from '../support/xcm-events';

const OWNER = '203.0.113.5';
let receiver: Receiver;
let redis: Awaited<ReturnType<typeof redisForTest>>;

beforeAll(async () => {
  [receiver, redis] = await Promise.all([startReceiver(), redisForTest()]);
});
afterAll(() => Promise.all([receiver.close(), redis.stop()]));

describe.each([
  ['memory', (_db: number) => ({})],
  // Each test keeps its watches in a database of its own: another test's watches, left to retry,
  // are never picked up by its services.
  ['redis', (db: number) => ({ REDIS_URL: `${redis.url}/${db}`, WATCH_LEASE_MS: '2000' })],
] as const)('watches kept in %s', (_backend, settings) => {
  it('the follow work counts against the owner\'s connection budget: it borrows the connections the owner\'s request opened, the nodes see no other', async () => {
    const [polkadot, assetHub] = await Promise.all([startTestChain('Polkadot', { partialFee: 1_000_000n }), startTestChain('AssetHubPolkadot')]);
    const builder = testApp();
    const watcher = testApp({ TRUST_PROXY: 'loopback', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100', ...settings(1) });
    try {
      const overrides = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
      const tx = await signedTransfer(builder.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(41n * DOT) } }, overrides);
      await builder.services.close();
      polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
      const opened = { polkadot: polkadot.connectionsOpened, assetHub: assetHub.connectionsOpened };

      const made = await request(watcher.app)
        .post('/v5/x-transfer/watch')
        .set('X-Forwarded-For', OWNER)
        .send({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options: { development: true, apiOverrides: overrides }, webhook: { url: receiver.url, secret: receiver.secret } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.id as string;
      await receiver.eventsOf(id, 1);
      assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
      expect((await receiver.eventsOf(id, 2)).map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.delivered']);

      // One connection per node since the builder left: the owner's, which its request and the
      // follow work both used (a follow run as anyone else would have dialled again).
      expect(polkadot.connectionsOpened - opened.polkadot).toBe(1);
      expect(assetHub.connectionsOpened - opened.assetHub).toBe(1);
    } finally {
      await Promise.all([builder.services.close(), watcher.services.close()]);
      await Promise.all([polkadot.close(), assetHub.close()]);
    }
  });

  it('deliveries resolve the webhook host on behalf of the owner: another client\'s deliveries hung in name lookups do not hold up the owner\'s', async () => {
    const [polkadot, assetHub] = await Promise.all([startTestChain('Polkadot', { partialFee: 1_000_000n }), startTestChain('AssetHubPolkadot')]);
    // flip.test names answer their first lookup (when the watch is made); later ones hang until the test ends.
    const asked = new Map<string, number>();
    const hung = new AbortController();
    const resolve = async (host: string): Promise<string[]> => {
      const count = (asked.get(host) ?? 0) + 1;
      asked.set(host, count);
      if (host.endsWith('.flip.test') && count > 1) await new Promise((_, reject) => hung.signal.addEventListener('abort', () => reject(Object.assign(new Error('cancelled'), { code: 'ECANCELLED' }))));
      return ['127.0.0.1'];
    };
    const builder = testApp();
    const config = testConfig({ TRUST_PROXY: 'loopback', DNS_MAX_LOOKUPS_PER_CLIENT: '2', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100', ...settings(2) });
    const logger = pino({ level: 'silent' });
    const services = createServices(config, logger, { resolve });
    const app = createApp({ config, logger, services });
    try {
      const overrides = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
      const tx = await signedTransfer(builder.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(42n * DOT) } }, overrides);
      polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
      const port = new URL(receiver.url).port;
      const watch = (client: string, host: string) =>
        request(app)
          .post('/v5/x-transfer/watch')
          .set('X-Forwarded-For', client)
          .send({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options: { development: true, apiOverrides: overrides }, webhook: { url: `http://${host}:${port}/hooks/xcm`, secret: receiver.secret } })
          .then((res) => {
            expect(res.status, JSON.stringify(res.body)).toBe(201);
            return res.body.id as string;
          });

      // Mallory's two watches: their first events' deliveries hang resolving their hosts.
      for (const host of ['m1.flip.test', 'm2.flip.test']) await watch('198.51.100.66', host);
      await until(() => asked.get('m1.flip.test')! > 1 && asked.get('m2.flip.test')! > 1, 'both deliveries to be resolving');
      // The owner's delivery resolves on the owner's bound, and arrives.
      const id = await watch(OWNER, 'hooks.ok.test');
      expect((await receiver.eventsOf(id, 1)).map((e) => e.event.type)).toEqual(['transfer.in-flight']);
    } finally {
      hung.abort();
      await Promise.all([builder.services.close(), services.close()]);
      await Promise.all([polkadot.close(), assetHub.close()]);
    }
  });
});
