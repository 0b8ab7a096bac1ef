// Connections a client names (options.apiOverrides) are its own: a client that points the service at
// silent nodes, at one host under many paths, or at many nodes fast, spends its own budget and
// nobody else's. Clients are told apart by address (X-Forwarded-For from a trusted loopback proxy).
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HostileNode } from '../support/hostile-node';
import type { TestChain } from '../support/test-chain';
import { testApp } from '../helpers/app';
import { ADDRESS, serverSet, sleep, until } from './helpers';

const servers = serverSet();
let upstream: TestChain;
let healthy: HostileNode;
const opened: Array<{ close(): Promise<void> }> = [];

const ALICE = '198.51.100.1';
const MALLORY = '203.0.113.66';

function app(overrides: Record<string, string> = {}) {
  const started = testApp({ TRUST_PROXY: 'loopback', CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '30000', ...overrides });
  opened.push(started.services);
  return started;
}

const balance = (listener: ReturnType<typeof testApp>['app'], client: string, url: string) =>
  request(listener)
    .post('/v5/balance/AssetHubPolkadot')
    .set('X-Forwarded-For', client)
    .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: url } } })
    .then((res) => res);

/** Closes the services: connects still waiting on a silent node end (503). */
const closeServices = () => Promise.all(opened.splice(0).map((services) => services.close()));

beforeAll(async () => {
  upstream = await servers.chain('AssetHubPolkadot');
});
beforeEach(async () => {
  // A node of its own per test: its connection counts are this test's.
  healthy = await servers.hostile({ upstream: upstream.url });
});
afterEach(closeServices);
afterAll(() => servers.closeAll());

describe('fair connections', () => {
  it('silent nodes a client named do not delay another client\'s first dial: it answers while they are all still connecting', async () => {
    const { app: listener } = app();
    // More silent connects than MAX_METADATA_DECODING (2), within the client's budget (3): each would have held a decode slot.
    const silent = await Promise.all([1, 2, 3].map(() => servers.hostile({ onRequest: () => 'ignore' })));
    let settled = 0;
    const stuck = silent.map((node) => balance(listener, MALLORY, node.url).finally(() => settled++));
    await until(() => silent.every((node) => node.requests.length > 0), 'every silent node to be asked');

    const res = await balance(listener, ALICE, healthy.url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(settled).toBe(0);
    expect(silent.every((node) => node.openConnections === 1)).toBe(true);
    await closeServices();
    for (const r of await Promise.all(stuck)) expect(r.status).toBe(503);
  });

  it('8 attempts/s at /1 ... /32 of a silent host never close another client\'s warm connection, never meet MAX_CHAINS, and open one client\'s budget of sockets', async () => {
    const { app: listener, config } = app();
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const budget = Math.min(config.MAX_OVERRIDE_CONNECTIONS_PER_CLIENT, config.MAX_OVERRIDE_CONNECTIONS_PER_HOST);
    expect((await balance(listener, ALICE, healthy.url)).status).toBe(200);

    const attacks: Promise<request.Response>[] = [];
    const alices: Promise<request.Response>[] = [];
    for (let i = 1; i <= 32; i++) {
      attacks.push(balance(listener, MALLORY, `${silent.url}/${i}`));
      if (i % 8 === 0) alices.push(balance(listener, ALICE, healthy.url));
      await sleep(125);
    }
    for (const res of await Promise.all(alices)) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(healthy.connectionsOpened).toBe(1);
    expect(healthy.openConnections).toBe(1);
    expect(silent.connectionsOpened).toBe(budget);

    await closeServices();
    const answers = await Promise.all(attacks);
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.body.message).not.toContain('MAX_CHAINS');
    }
    expect(answers.filter((res) => /MAX_OVERRIDE_CONNECTIONS_PER_(CLIENT|HOST)/.test(res.body.message))).toHaveLength(32 - budget);
  });

  it('/1 ... /32 of one host named by 32 clients count as one host: its budget of sockets, then 503 naming MAX_OVERRIDE_CONNECTIONS_PER_HOST', async () => {
    const { app: listener, config } = app();
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const attacks = Array.from({ length: 32 }, (_, i) => balance(listener, `203.0.113.${i + 1}`, `${silent.url}/${i + 1}`));
    await until(() => silent.connectionsOpened === config.MAX_OVERRIDE_CONNECTIONS_PER_HOST, 'one host\'s budget of sockets');
    // The lane still has room for another client and another host.
    expect((await balance(listener, ALICE, healthy.url)).status).toBe(200);
    expect(silent.connectionsOpened).toBe(config.MAX_OVERRIDE_CONNECTIONS_PER_HOST);

    await closeServices();
    const answers = await Promise.all(attacks);
    expect(answers.filter((res) => res.status === 503 && res.body.message.includes('MAX_OVERRIDE_CONNECTIONS_PER_HOST'))).toHaveLength(32 - config.MAX_OVERRIDE_CONNECTIONS_PER_HOST);
  });

  it('?endpoint= of GET /x-transfer/para-eth-fees spends the client\'s own budget, as apiOverrides does', async () => {
    const { app: listener } = app({ MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '1' });
    const silent = await servers.hostile({ onRequest: () => 'ignore' });
    const stuck = request(listener)
      .get('/v5/x-transfer/para-eth-fees')
      .query({ endpoint: silent.url, development: 'true' })
      .set('X-Forwarded-For', MALLORY)
      .then((res) => res);
    await until(() => silent.openConnections === 1, 'the silent connect to start');
    const refused = await balance(listener, MALLORY, healthy.url);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('MAX_OVERRIDE_CONNECTIONS_PER_CLIENT');
    expect((await balance(listener, ALICE, healthy.url)).status).toBe(200);
    await closeServices();
    expect((await stuck).status).toBe(503);
  });
});
