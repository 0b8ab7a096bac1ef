import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../hostile/helpers';
import { builtServer, runServer, type ServerProcess } from '../support/built-server';
import { refusedUrl, startTestChain } from '../support/test-chain';

// What an operator sees from `node dist/src/server.js`: JSON lines only, whatever happens.
// (The polkadot.js reports below are dropped in test processes: test/support/setup.ts.)
beforeAll(() => builtServer(), 180_000);

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

const nonJson = (server: ServerProcess) => server.lines.filter((l) => !l.json).map((l) => `${l.stream}: ${l.text}`);

describe('start-up output', () => {
  it('from start to listening and through shutdown, with the default limits on: JSON lines only', async () => {
    const server = await runServer();
    await server.listening;
    expect(nonJson(server), 'before listening').toEqual([]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(nonJson(server)).toEqual([]);
    expect(server.lines.map((l) => l.json?.msg)).toEqual(['listening', 'shutting down', 'stopped']);
  });

  it('a chain that never answers: one warn line for the failed dial, with its origin and every endpoint; no chain client report of the close of the dial given up', async () => {
    const silent = await startTestChain('Polkadot', { silent: true });
    const refused = await refusedUrl();
    try {
      // The operator's endpoints: their connection's ApiPromise is made as the socket opens, and reports
      // on the console when its calls are dropped (a client's dial asks its node first, with no ApiPromise yet).
      const server = await runServer({ env: { CONNECT_TIMEOUT_MS: '1000', LOG_LEVEL: 'debug', CHAIN_ENDPOINTS: JSON.stringify({ Polkadot: [silent.url, refused] }) } });
      const url = await server.listening;
      const res = await fetch(`${url}/v5/x-transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          from: 'Polkadot',
          to: 'AssetHubPolkadot',
          currency: { symbol: 'DOT', amount: '10000000000' },
          address: ADDRESS,
          options: {},
        }),
      });
      expect(res.status).toBe(503);
      await until(() => silent.openConnections === 0, 'the abandoned connection to close');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(nonJson(server)).toEqual([]);
      const loud = server.lines.filter((l) => (l.json?.level ?? 0) >= 40).map((l) => l.json);
      expect(loud).toEqual([
        expect.objectContaining({
          level: 40,
          origin: 'chains',
          chain: 'Polkadot',
          msg: 'chain dial failed',
          endpoints: [
            { endpoint: silent.url, reason: expect.stringMatching(/no ready answer/) },
            { endpoint: refused, reason: expect.stringMatching(/ECONNREFUSED/) },
          ],
        }),
        expect.objectContaining({ level: 50, status: 503, msg: 'request failed' }),
      ]);
      // The service closed the dial it gave up: polkadot.js's reports of the calls that close cut
      // short (`disconnected from <url>: 1000:: Normal Closure`, one per call) are no lines.
      expect(server.lines.filter((l) => l.text.includes('Normal Closure'))).toEqual([]);
      for (const { json } of server.lines.filter((l) => l.json?.console !== undefined)) expect(json).toMatchObject({ level: 20 });
    } finally {
      await silent.close();
    }
  });

  it('a node that refuses a call: the chain client\'s console report is a debug line naming its origin', async () => {
    const [polkadot, assetHub] = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot')]);
    try {
      const server = await runServer({ env: { LOG_LEVEL: 'debug', CHAIN_ENDPOINTS: JSON.stringify({ Polkadot: [polkadot.url], AssetHubPolkadot: [assetHub.url] }) } });
      const url = await server.listening;
      // The test chains refuse the dry run /xcm-fee asks for.
      const res = await fetch(`${url}/v5/xcm-fee`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ADDRESS, senderAddress: ADDRESS, options: {} }),
      });
      expect(res.status).toBe(502);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(nonJson(server)).toEqual([]);
      const refused = server.lines.filter((l) => l.json?.console !== undefined && /cannot execute runtime call/.test(String(l.json.msg)));
      expect(refused.length).toBeGreaterThan(0);
      for (const { json } of refused) expect(json).toMatchObject({ level: 20, console: 'error', origin: 'RPC-CORE' });
    } finally {
      await Promise.all([polkadot.close(), assetHub.close()]);
    }
  });

  it('a bad variable: one fatal JSON line naming it, exit 1', async () => {
    const server = await runServer({ env: { PORT: 'eighty' } });
    expect(await server.exited).toBe(1);
    expect(nonJson(server)).toEqual([]);
    expect(server.lines).toHaveLength(1);
    expect(server.lines[0].json).toMatchObject({ level: 60, msg: expect.stringContaining('PORT') });
  });

  describe('a port already taken', () => {
    let taken: Server;
    beforeAll(() => new Promise<void>((resolve) => (taken = createServer().listen(0, '127.0.0.1', resolve))));
    afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

    it('one fatal JSON line with the error, exit 1', async () => {
      const address = taken.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const server = await runServer({ env: { PORT: String(port) } });
      expect(await server.exited).toBe(1);
      expect(nonJson(server)).toEqual([]);
      expect(server.lines).toHaveLength(1);
      expect(server.lines[0].json).toMatchObject({ level: 60, msg: 'the service cannot start', err: { code: 'EADDRINUSE' } });
    });
  });
});
