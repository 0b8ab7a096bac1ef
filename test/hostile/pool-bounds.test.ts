// Work bounded by the size of the input: one node under many URL spellings is one connection,
// MAX_CHAINS counts connections still connecting, and metadata is decoded two connections at a time.
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPool } from '../../src/chains/pool';
import { ProviderUnavailableError } from '../../src/errors';
import type { TestChain } from '../support/test-chain';
import { expectErrorBody, testApp } from '../helpers/app';
import { ADDRESS, never, serverSet, until } from './helpers';

const servers = serverSet();
let upstream: TestChain;
const pools: ConnectionPool[] = [];
const newPool = (options: Partial<ConstructorParameters<typeof ConnectionPool>[0]>) => {
  const pool = new ConnectionPool({ connectTimeoutMs: 10_000, idleTimeoutMs: 60_000, maxChains: 8, ...options });
  pools.push(pool);
  return pool;
};

beforeAll(async () => {
  upstream = await servers.chain('AssetHubPolkadot');
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
afterAll(() => servers.closeAll());

describe('pool keys', () => {
  it('ws://node/?n=1 ... ?n=40, a trailing slash, upper case and a trailing dot are one node: one connection', async () => {
    const node = await servers.hostile({ upstream: upstream.url });
    const { app, services } = testApp();
    try {
      const host = new URL(node.url).host;
      const spellings = [
        ...Array.from({ length: 40 }, (_, i) => `ws://${host}/?n=${i}`),
        `ws://${host}`,
        `WS://${host}/#fragment`,
        `ws://${host.replace('127.0.0.1', '127.0.0.1.')}/`,
      ];
      const answers = await Promise.all(
        spellings.map((url) =>
          request(app)
            .post('/v5/balance/AssetHubPolkadot')
            .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: url } } }),
        ),
      );
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(node.connectionsOpened).toBe(1);
      expect(services.pool.size).toBe(1);
    } finally {
      await services.close();
    }
  });
});

describe('MAX_CHAINS counts connections open and connecting', () => {
  it('with every slot connecting, another chain is refused at once (503), not queued', async () => {
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const other = await servers.hostile({ upstream: upstream.url });
    const pool = newPool({ maxChains: 1 });
    const connecting = pool.acquire('Polkadot', [silent.url]);
    connecting.catch(() => undefined);
    await until(() => silent.openConnections === 1, 'the first connect to start');

    await expect(pool.acquire('AssetHubPolkadot', [other.url])).rejects.toThrow(ProviderUnavailableError);
    expect(other.connectionsOpened).toBe(0);
    expect(pool.size).toBe(1);
  });

  it('over HTTP: 503 ProviderUnavailableError with Retry-After naming MAX_CHAINS', async () => {
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const other = await servers.hostile({ upstream: upstream.url });
    const { app, services } = testApp({ MAX_CHAINS: '1', CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '30000' });
    try {
      const body = (url: string) => ({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: url, Polkadot: url } } });
      const stuck = request(app).post('/v5/balance/Polkadot').send(body(silent.url)).then((r) => r);
      await until(() => silent.openConnections === 1, 'the first connect to start');
      const res = await request(app).post('/v5/balance/AssetHubPolkadot').send(body(other.url));
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expectErrorBody(res.body, 503, 'ProviderUnavailableError');
      expect(res.body.message).toContain('MAX_CHAINS');
      expect(res.headers['retry-after']).toBeDefined();
      expect(other.connectionsOpened).toBe(0);
      await services.close();
      expect((await stuck).status).toBe(503);
    } finally {
      await services.close();
    }
  });
});

describe('metadata decoding', () => {
  it('at most 2 new connections fetch and decode metadata at once; the others wait with their socket open, and take a slot that frees', async () => {
    // Nodes that accept the socket and never answer: a connection that got a decode slot asks for
    // metadata (its first RPC requests); one still waiting for a slot has sent nothing.
    const nodes = await Promise.all([1, 2, 3, 4].map(() => servers.hostile({ onRequest: () => 'ignore' })));
    const pool = newPool({ maxDecoding: 2 });
    const pending = nodes.map((node, i) => pool.acquire(`Chain${i}`, [node.url]));
    pending.forEach((p) => p.catch(() => undefined));
    const asking = () => nodes.filter((n) => n.requests.length > 0);
    await until(() => nodes.every((n) => n.openConnections === 1), 'every socket to open');
    await until(() => asking().length === 2, 'two connections to ask for metadata');
    // A connection with an open socket asks as soon as it holds a slot: a third would show at once.
    await never(() => asking().length > 2, 'a third connection asked for metadata while two held the slots', 500);
    expect(nodes.every((n) => n.openConnections === 1)).toBe(true);
    // One decoding connection fails (its node goes away): its slot goes to one that waited.
    await asking()[0].close();
    await until(() => asking().length === 3, 'a waiting connection to take the freed slot');
    await never(() => asking().length > 3, 'both waiting connections took the one freed slot', 500);
  });
});
