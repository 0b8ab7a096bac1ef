// The service as an operator runs it (compiled, its own process, its own uncaughtException handler,
// which stops the service): a node's runtime version that does not decode used to end it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtServer, runServer } from '../support/built-server';
import type { HostileNode } from '../support/hostile-node';
import { ADDRESS, serverSet, STORAGE_METHODS, until } from './helpers';

const servers = serverSet();
let node: HostileNode;

beforeAll(async () => {
  await builtServer();
  const upstream = await servers.chain('AssetHubPolkadot');
  let spent = false;
  // Hands out a runtime-version subscription while connecting; the first storage read gets a
  // notification on it whose specVersion does not decode, in place of its answer.
  node = await servers.hostile({
    upstream: upstream.url,
    onRequest: (frame) => {
      if (frame.method === 'state_subscribeRuntimeVersion') return { send: JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: 'rv-1' }) };
      if (spent || !STORAGE_METHODS.has(String(frame.method))) return 'forward';
      spent = true;
      return { send: '{"jsonrpc":"2.0","method":"state_runtimeVersion","params":{"subscription":"rv-1","result":{"specName":"x","specVersion":"abc","apis":[]}}}' };
    },
  });
}, 180_000);
afterAll(() => servers.closeAll());

const balance = (url: string) =>
  fetch(`${url}/v5/balance/AssetHubPolkadot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: node.url } } }),
  });

describe('a runtime version that does not decode, in the built server', () => {
  it('ends the node\'s connection only: 502 naming the chain, the process serves on and logs no fatal line; the next request dials afresh', async () => {
    const server = await runServer({ env: { CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000' } });
    const url = await server.listening;
    const res = await balance(url);
    const body = (await res.json()) as { kind: string; message: string };
    expect(res.status, JSON.stringify(body)).toBe(502);
    expect(body).toMatchObject({ kind: 'ChainResponseError', message: expect.stringMatching(/^Chain AssetHubPolkadot .*createType\(RuntimeVersion\)/) as unknown });
    await until(() => node.openConnections === 0, 'the node\'s connection to close');
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await balance(url)).status).toBe(200);
    expect(node.connectionsOpened).toBe(2);

    expect(server.child.exitCode).toBeNull();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.lines.filter((l) => !l.json)).toEqual([]);
    expect(server.lines.filter((l) => (l.json?.level ?? 0) >= 60)).toEqual([]);
  }, 60_000);
});
