// xcm-router 11.14.8 opens chain clients on every call (polkadot.js through sdk-pjs, polkadot-api
// through the papi SDK) and never closes them. Counted at the nodes: the polkadot.js clients are
// the pool's (one connection per chain for every call), the others close when the request ends,
// and none keeps reconnecting after it.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedUrl, type TestChain } from '../support/test-chain';
import { expectErrorBody, testApp } from '../helpers/app';
import { never, serverSet, swapBody, until } from './helpers';

const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const servers = serverSet();
let polkadot: TestChain;
let hydration: TestChain;

beforeAll(async () => {
  [polkadot, hydration] = await Promise.all([servers.chain('Polkadot'), servers.chain('Hydration')]);
}, 60_000);
afterAll(() => servers.closeAll());

/** DOT from Polkadot swapped to HDX on Hydration, every chain overridden. */
const swap = (apiOverrides: Record<string, string>) => swapBody(apiOverrides, BOB);

describe('router chain clients', () => {
  it('N router calls: one pooled connection to the exchange chain, none left to the origin; 0 once the pool closes', async () => {
    const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000' });
    try {
      const routes = ['/v5/router', '/v5/router/best-amount-out', '/v2/router', '/v5/router/xcm-fees'];
      for (const path of routes) {
        const res = await request(app).post(path).send(swap({ Polkadot: polkadot.url, Hydration: hydration.url }));
        // The test chain cannot execute Hydration's runtime calls: the router's RPC error is the chain's.
        expect(res.status, JSON.stringify(res.body)).toBe(502);
        expectErrorBody(res.body, 502, 'ChainResponseError');
        expect(res.body.message).toContain('Chain Hydration answered with an RPC error');
        // The call's polkadot-api clients close with it; the pooled polkadot.js one stays.
        await until(() => polkadot.openConnections === 0 && hydration.openConnections === 1, 'the clients of the call to close');
      }
      expect(services.pool.size).toBe(1);
    } finally {
      await services.close();
    }
    await until(() => hydration.openConnections === 0 && polkadot.openConnections === 0, 'every socket to close');
  }, 60_000);

  it("without apiOverrides the router dials CHAIN_ENDPOINTS' nodes, through the pool, not the registry's public endpoints", async () => {
    const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000', CHAIN_ENDPOINTS: JSON.stringify({ Polkadot: [polkadot.url], Hydration: [hydration.url] }) });
    const [toPolkadot, toHydration] = [polkadot.connectionsOpened, hydration.connectionsOpened];
    try {
      const { options: _none, ...body } = swap({});
      const res = await request(app).post('/v5/router').send(body);
      // As with overrides: the exchange chain was reached, and the test chain cannot execute its runtime calls.
      expect(res.status, JSON.stringify(res.body)).toBe(502);
      expect(res.body.message).toContain('Chain Hydration answered with an RPC error');
      expect(hydration.connectionsOpened).toBeGreaterThan(toHydration);
      expect(polkadot.connectionsOpened).toBeGreaterThan(toPolkadot);
      // The exchange chain's polkadot.js client is the pool's, the call's polkadot-api clients close with it.
      await until(() => polkadot.openConnections === 0 && hydration.openConnections === 1, 'the clients of the call to close');
      expect(services.pool.size).toBe(1);
    } finally {
      await services.close();
    }
  }, 60_000);

  it('an unreachable exchange chain: 503 ProviderUnavailableError naming the refused socket (not a 504 at the request deadline)', async () => {
    const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '60000' });
    try {
      const res = await request(app).post('/v5/router').send(swap({ Polkadot: polkadot.url, Hydration: await refusedUrl() }));
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expectErrorBody(res.body, 503, 'ProviderUnavailableError');
      expect(res.body.message).toContain('Hydration');
      expect(res.body.message).toContain('ECONNREFUSED');
    } finally {
      await services.close();
    }
  }, 30_000);

  it('a silent exchange chain: 503 naming the connect deadline that ran out (not the request deadline), its socket closed', async () => {
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '60000' });
    try {
      const res = await request(app).post('/v5/router').send(swap({ Polkadot: polkadot.url, Hydration: silent.url }));
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expectErrorBody(res.body, 503, 'ProviderUnavailableError');
      expect(res.body.message).toContain('Hydration');
      expect(res.body.message).toMatch(/unreachable: no ready answer within \d+ ms/);
      await until(() => silent.openConnections === 0 && polkadot.openConnections === 0, 'every socket to close');
    } finally {
      await services.close();
    }
  }, 30_000);

  it('an origin that accepts and closes (the router reads it through polkadot-api): its client ends with the request, no reconnect loop survives', async () => {
    const flapping = await servers.hostile({ acceptThenClose: true });
    const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '60000' });
    try {
      const res = await request(app).post('/v5/router').send(swap({ Polkadot: flapping.url, Hydration: hydration.url }));
      // Whichever fails first ends the request: the origin at the connect deadline (503) or the
      // exchange chain's runtime call the test chain cannot execute (502).
      expect([502, 503], JSON.stringify(res.body)).toContain(res.status);
      expect(flapping.connectionsOpened, 'the router dialled the origin').toBeGreaterThan(0);
      // A client still reconnecting would dial again at once (polkadot-api retries without a delay).
      const after = flapping.connectionsOpened;
      await never(() => flapping.connectionsOpened > after, 'the origin was dialled again after the request ended', 3_000);
    } finally {
      await services.close();
    }
  }, 30_000);

  it('a node that accepts and closes: no reconnect loop survives the request', async () => {
    const flapping = await servers.hostile({ acceptThenClose: true });
    const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '60000' });
    try {
      const res = await request(app).post('/v5/router').send(swap({ Polkadot: polkadot.url, Hydration: flapping.url }));
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.message).toContain('Hydration');
      // A client still reconnecting would dial again within its retry delay (polkadot.js: 2.5 s).
      const after = flapping.connectionsOpened;
      await never(() => flapping.connectionsOpened > after, 'a client dialled the node again after the request ended', 3_000);
    } finally {
      await services.close();
    }
  }, 30_000);
});
