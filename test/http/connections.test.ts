import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { start } from '../../src/server';
import { expectErrorBody, testApp, testConfig } from '../helpers/app';
import { refusedUrl, startBlackHole, startTestChain } from '../support/test-chain';

// The connection layer's promises, each counted at the test chain.
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const body = (url: string | string[]) => ({
  from: 'Polkadot',
  to: 'AssetHubPolkadot',
  currency: { symbol: 'DOT', amount: '10000000000' },
  address: ALICE,
  options: { development: true, apiOverrides: { Polkadot: url } },
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The app on a real loopback port, so that concurrent requests share one server. */
async function serve(overrides: Record<string, string> = {}) {
  const { app, services } = testApp(overrides);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await services.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { server, services, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('pooled connections', () => {
  it('100 concurrent builds for one chain open exactly one connection', async () => {
    const chain = await startTestChain('Polkadot');
    cleanups.push(() => chain.close());
    const { url } = await serve();
    const responses = await Promise.all(Array.from({ length: 100 }, () => request(url).post('/v5/x-transfer').send(body(chain.url))));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    expect(chain.connectionsOpened).toBe(1);
    expect(chain.openConnections).toBe(1);
  });

  it('an idle connection closes after its time, and the next request reconnects', async () => {
    const chain = await startTestChain('Polkadot');
    cleanups.push(() => chain.close());
    const { url } = await serve({ IDLE_TIMEOUT_MS: '300' });
    await request(url).post('/v5/x-transfer').send(body(chain.url)).expect(200);
    expect(chain.openConnections).toBe(1);
    await until(() => chain.openConnections === 0);
    await request(url).post('/v5/x-transfer').send(body(chain.url)).expect(200);
    expect(chain.connectionsOpened).toBe(2);
  });

  it('shutdown stops accepting, closes every chain connection and resolves', async () => {
    const polkadot = await startTestChain('Polkadot');
    const assetHub = await startTestChain('AssetHubPolkadot');
    cleanups.push(() => polkadot.close(), () => assetHub.close());
    const running = await start(testConfig({ PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '2000' }));
    await request(running.url).post('/v5/x-transfer').send(body(polkadot.url)).expect(200);
    await request(running.url)
      .post('/v5/x-transfer')
      .send({ ...body(polkadot.url), from: 'AssetHubPolkadot', to: 'Polkadot', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' }, senderAddress: ALICE, options: { development: true, apiOverrides: { AssetHubPolkadot: assetHub.url } } })
      .expect(200);
    expect(polkadot.openConnections + assetHub.openConnections).toBe(2);
    await running.stop();
    await until(() => polkadot.openConnections === 0 && assetHub.openConnections === 0, 2_000);
    expect(running.server.listening).toBe(false);
  });
});

// Why each gave up is in the answer: the refused socket, or the connect deadline that ran out
// (never the request deadline, whose answer would be a 504).
describe('unreachable chains answer 503 naming the chain, the endpoint and why, and the server keeps serving', () => {
  it.each([
    ['a port that refuses connections: the socket error', /ECONNREFUSED/, async () => ({ url: await refusedUrl(), close: async (): Promise<void> => undefined })],
    ['a server that accepts but never answers: the connect deadline', /no ready answer within \d+ ms/, async () => startBlackHole()],
    ['a chain that accepts WebSockets but never answers: the connect deadline', /no ready answer within \d+ ms/, async () => startTestChain('Polkadot', { silent: true })],
  ])('%s', async (_name, why, open) => {
    const dead = await open();
    cleanups.push(() => dead.close());
    const { url } = await serve({ CONNECT_TIMEOUT_MS: '1000' });
    const transfer = request(url).post('/v5/x-transfer').send(body(dead.url));
    // While the chain is being dialled, other requests are served.
    const lookup = await request(url).get('/v2/chains/Hydration/para-id').expect(200);
    expect(lookup.body).toBe(2034);
    const res = await transfer;
    expect(res.status).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('Polkadot');
    expect(res.body.message).toContain(dead.url);
    expect(res.body.message).toMatch(why);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    if ('openConnections' in dead) await until(() => (dead as { openConnections: number }).openConnections === 0);
  });

  it('fails over to the next endpoint when the first is dead', async () => {
    const chain = await startTestChain('Polkadot');
    cleanups.push(() => chain.close());
    const { url } = await serve({ CONNECT_TIMEOUT_MS: '5000' });
    await request(url).post('/v5/x-transfer').send(body([await refusedUrl(), chain.url])).expect(200);
    expect(chain.connectionsOpened).toBe(1);
  });

  it('work that overruns the request deadline is a 504', async () => {
    const silent = await startTestChain('Polkadot', { silent: true });
    cleanups.push(() => silent.close());
    const { url } = await serve({ CONNECT_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '500' });
    const res = await request(url).post('/v5/x-transfer').send(body(silent.url)).expect(504);
    expectErrorBody(res.body, 504, 'DeadlineExceededError');
    // The abandoned attempt still ends at the connect deadline: no socket outlives it.
    await until(() => silent.openConnections === 0, 5_000);
  });
});
