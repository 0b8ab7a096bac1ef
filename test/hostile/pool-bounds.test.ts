// Work bounded by the size of the input: one node under many URL spellings is one connection,
// MAX_CHAINS counts connections still connecting, a client's budget counts its own, and metadata is
// decoded two connections at a time, a slot held only while decoding (never while a node is silent).
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectFirst } from '../../src/chains/connect';
import { AddressGuard } from '../../src/chains/address-guard';
import { DEFAULT_MAX_FRAME_BYTES } from '../../src/chains/chain-socket';
import { ConnectionPool } from '../../src/chains/pool';
import { Slots } from '../../src/chains/slots';
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

describe('MAX_CHAINS and client budgets count connections open and connecting', () => {
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

  it('over HTTP, a client\'s overrides spend its own budget: 503 ProviderUnavailableError with Retry-After naming MAX_OVERRIDE_CONNECTIONS_PER_CLIENT', async () => {
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const other = await servers.hostile({ upstream: upstream.url });
    const { app, services } = testApp({ MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '1', CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '30000' });
    try {
      const body = (url: string) => ({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: url, Polkadot: url } } });
      const stuck = request(app).post('/v5/balance/Polkadot').send(body(silent.url)).then((r) => r);
      await until(() => silent.openConnections === 1, 'the first connect to start');
      const res = await request(app).post('/v5/balance/AssetHubPolkadot').send(body(other.url));
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expectErrorBody(res.body, 503, 'ProviderUnavailableError');
      expect(res.body.message).toContain('MAX_OVERRIDE_CONNECTIONS_PER_CLIENT');
      expect(res.body.message).not.toContain('MAX_CHAINS');
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
  const dial = (slots: Slots) => ({ guard: new AddressGuard(true), maxFrameBytes: DEFAULT_MAX_FRAME_BYTES, decodeSlots: slots });

  it('silent nodes connecting on every slot and more do not hold a decode slot: a healthy chain connects while they are all still pending', async () => {
    const nodes = await Promise.all([1, 2, 3, 4].map(() => servers.hostile({ onRequest: () => 'ignore' })));
    const pool = newPool({ maxDecoding: 2 });
    const settled = new Set<number>();
    const pending = nodes.map((node, i) => pool.acquire(`Chain${i}`, [node.url]));
    pending.forEach((p, i) => p.then(() => settled.add(i), () => settled.add(i)));
    // Each silent node has been asked for something: its connect waits on the node, not a slot.
    await until(() => nodes.every((n) => n.requests.length > 0), 'every silent node to be asked');

    const lease = await pool.acquire('AssetHubPolkadot', [upstream.url]);
    expect((await lease.api.rpc.system.chain()).toString()).toBe('Polkadot Asset Hub');
    lease.release();
    expect(settled.size).toBe(0);
    expect(nodes.every((n) => n.openConnections === 1)).toBe(true);
  });

  it('a connection whose metadata has arrived waits for a slot to decode it, and is ready once one frees', async () => {
    const metadataAsked: Array<number | string | undefined> = [];
    const node = await servers.hostile({
      upstream: upstream.url,
      onRequest: (frame) => {
        const params = frame.params as unknown[] | undefined;
        if (frame.method === 'state_getMetadata' || (frame.method === 'state_call' && params?.[0] === 'Metadata_metadata_at_version')) metadataAsked.push(frame.id);
        return 'forward';
      },
    });
    const slots = new Slots(1);
    const held = await slots.acquire();
    let ready = false;
    const connecting = connectFirst('AssetHubPolkadot', [node.url], 20_000, new AbortController().signal, dial(slots)).then((connection) => {
      ready = true;
      return connection;
    });
    connecting.catch(() => undefined);
    await until(() => metadataAsked.length > 0 && node.answered.includes(metadataAsked[0]), 'the metadata to arrive');
    // Decoding takes a few hundred ms once it may start: a connection that skipped the slot would be ready by then.
    await never(() => ready, 'the connection decoded its metadata without a slot', 1_000);
    held();
    const { api } = await connecting;
    expect((await api.rpc.system.chain()).toString()).toBe('Polkadot Asset Hub');
    await api.disconnect();
  });
});
