// A chain node's frames can never end the process. Each bad frame below used to be parsed inside the
// socket's event handler by polkadot.js, where a throw is an uncaught exception (the process exits);
// others were dropped silently and left the request hanging until its deadline.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Behaviour, HostileNode, RpcFrame } from '../support/hostile-node';
import { refusedUrl, type TestChain } from '../support/test-chain';
import { expectErrorBody, testApp } from '../helpers/app';
import { ADDRESS, serverSet, STORAGE_METHODS, until } from './helpers';

const servers = serverSet();
let upstream: TestChain;
// A small frame bound, so that "huge" is cheap to send; metadata frames stay well under it.
const app = testApp({ CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000', CHAIN_MAX_FRAME_BYTES: String(4 * 1024 * 1024) });

beforeAll(async () => {
  upstream = await servers.chain('AssetHubPolkadot');
});
afterAll(async () => {
  await app.services.close();
  await servers.closeAll();
});

const balance = (node: HostileNode) =>
  request(app.app)
    .post('/v5/balance/AssetHubPolkadot')
    .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: node.url } } });

/** A node in front of the real chain that answers the first storage read with `bad`. */
async function nodeAnsweringStorageWith(bad: (frame: RpcFrame) => Behaviour): Promise<HostileNode> {
  let spent = false;
  return servers.hostile({
    upstream: upstream.url,
    onRequest: (frame) => {
      if (spent || !STORAGE_METHODS.has(String(frame.method))) return 'forward';
      spent = true;
      return bad(frame);
    },
  });
}

const id = (frame: RpcFrame) => JSON.stringify(frame.id);
const BAD_FRAMES: Array<[string, (frame: RpcFrame) => Behaviour]> = [
  ['not JSON', () => ({ send: 'x' })],
  ['null', () => ({ send: 'null' })],
  ['a notification with null params', () => ({ send: '{"jsonrpc":"2.0","method":"chain_newHead","params":null}' })],
  ['a notification without a subscription', () => ({ send: '{"jsonrpc":"2.0","method":"state_storage","params":{"result":1}}' })],
  ['an answer to an id never asked', () => ({ send: '{"jsonrpc":"2.0","id":987654,"result":"0x"}' })],
  ['an error without a code', (f) => ({ send: `{"jsonrpc":"2.0","id":${id(f)},"error":{"message":"boom"}}` })],
  ['an error that is a string', (f) => ({ send: `{"jsonrpc":"2.0","id":${id(f)},"error":"boom"}` })],
  ['truncated JSON', (f) => ({ send: `{"jsonrpc":"2.0","id":${id(f)},"result":"0x` })],
  ['a binary frame', () => ({ send: Buffer.from([0xde, 0xad, 0xbe, 0xef]), binary: true })],
  ['a text frame that is not UTF-8', () => ({ send: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), binary: false })],
  ['a batch array', (f) => ({ send: `[{"jsonrpc":"2.0","id":${id(f)},"result":null}]` })],
  ['a number', () => ({ send: '42' })],
  ['an answer without result or error', (f) => ({ send: `{"jsonrpc":"2.0","id":${id(f)}}` })],
];

describe('one bad frame during a storage read', () => {
  it.each(BAD_FRAMES)('%s: 502 ChainResponseError naming the chain; the connection leaves the pool; the next request dials afresh', async (_name, bad) => {
    const node = await nodeAnsweringStorageWith(bad);
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toContain('Chain AssetHubPolkadot');
    await until(() => node.openConnections === 0, 'the bad connection to close');

    const again = await balance(node);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toBe('0');
    expect(node.connectionsOpened).toBe(2);
  });

  it('a frame over CHAIN_MAX_FRAME_BYTES: 502 ChainResponseError naming the limit', async () => {
    const node = await nodeAnsweringStorageWith((f) => ({ send: JSON.stringify({ jsonrpc: '2.0', id: f.id, result: `0x${'00'.repeat(3 * 1024 * 1024)}` }) }));
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/AssetHubPolkadot.*size limit/);
    await until(() => node.openConnections === 0, 'the connection to close');
  });

  it('a malformed storage value: 502 ChainResponseError (it does not decode with the chain metadata)', async () => {
    const node = await nodeAnsweringStorageWith((f) => {
      const keys = (f.params as unknown[])[0];
      const key = Array.isArray(keys) ? String(keys[0]) : String(keys);
      const result = f.method === 'state_queryStorageAt' ? [{ block: `0x${'11'.repeat(32)}`, changes: [[key, '0x01']] }] : '0x01';
      return { send: JSON.stringify({ jsonrpc: '2.0', id: f.id, result }) };
    });
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/Chain AssetHubPolkadot answered with data that does not decode/);
  });

  it('the node closes the socket mid-request: 503 naming the chain and the close; the next request dials afresh', async () => {
    const node = await nodeAnsweringStorageWith(() => ({ closeWith: 1011, reason: 'node going away' }));
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toMatch(/Chain AssetHubPolkadot .*1011.*node going away/);
    expect(res.body.message).not.toContain('[object Object]');
    const again = await balance(node);
    expect(again.status).toBe(200);
    expect(node.connectionsOpened).toBe(2);
  });

  it('the node drops the TCP connection mid-request: 503 ProviderUnavailableError', async () => {
    const node = await nodeAnsweringStorageWith(() => 'close');
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('AssetHubPolkadot');
  });
});

describe('bad frames while connecting', () => {
  it.each(BAD_FRAMES.slice(0, 3))('%s as the first answer: 502 ChainResponseError, no socket left', async (_name, bad) => {
    const node = await servers.hostile({ upstream: upstream.url, onRequest: (frame) => bad(frame) });
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toContain('Chain AssetHubPolkadot');
    await until(() => node.openConnections === 0, 'the socket to close');
  });
});

describe('frames in an order nodes use', () => {
  it("a subscription's first notification before the answer giving its id (chopsticks' order): 200, on one connection", async () => {
    // The node notifies the runtime version at once; other subscriptions of a sandbox node may never notify.
    const subscribes = new Set(['state_subscribeRuntimeVersion', 'chain_subscribeRuntimeVersion']);
    let reordered = 0;
    const node = await servers.hostile({
      upstream: upstream.url,
      onRequest: (frame) => (subscribes.has(String(frame.method)) ? (reordered++, 'forwardNotificationFirst') : 'forward'),
    });
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe('0');
    expect(reordered).toBeGreaterThan(0);
    expect(node.connectionsOpened).toBe(1);
    expect(node.openConnections).toBe(1);
  });
});

describe('the service keeps serving', () => {
  it('answers /health and other chains while a node misbehaves', async () => {
    const node = await nodeAnsweringStorageWith(() => ({ send: 'x' }));
    const [bad, health] = await Promise.all([balance(node), request(app.app).get('/health')]);
    expect(bad.status).toBe(502);
    expect(health.status).toBe(200);
  });
});

describe('socket errors are named', () => {
  it('wss:// to a node that speaks plain ws: 503 naming a TLS failure, never [object Object]', async () => {
    const res = await request(app.app)
      .post('/v5/balance/AssetHubPolkadot')
      .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: upstream.url.replace('ws://', 'wss://') } } });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.message).toContain('TLS failure');
    expect(res.body.message).not.toContain('[object Object]');
  });

  it('a long endpoint URL is quoted to 200 characters in the 503', async () => {
    const url = `${await refusedUrl()}/${'b'.repeat(1_500)}`;
    const res = await request(app.app)
      .post('/v5/balance/AssetHubPolkadot')
      .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: url } } });
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('b'.repeat(100));
    expect(res.body.message).not.toContain('b'.repeat(201));
  });

  it('a refused port: 503 naming ECONNREFUSED', async () => {
    const res = await request(app.app)
      .post('/v5/balance/AssetHubPolkadot')
      .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: await refusedUrl() } } });
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('ECONNREFUSED');
    expect(res.body.message).not.toContain('[object Object]');
  });
});

describe('a slow node', () => {
  it('answers after the request deadline: 504, the late answer harms nothing, the socket closes with the pool', async () => {
    const slow = testApp({ CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1500' });
    let late: unknown;
    const node = await nodeAnsweringStorageWith((frame) => {
      late = frame.id;
      return { forwardAfterMs: 2_500 };
    });
    try {
      const res = await request(slow.app)
        .post('/v5/balance/AssetHubPolkadot')
        .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: node.url } } });
      expect(res.status, JSON.stringify(res.body)).toBe(504);
      expectErrorBody(res.body, 504, 'DeadlineExceededError');
      expect(node.openConnections).toBe(1);
      // The late answer arrives on the pooled connection, which stays usable.
      await until(() => late !== undefined && node.answered.includes(late), 'the late answer to reach the service');
      const again = await request(slow.app)
        .post('/v5/balance/AssetHubPolkadot')
        .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: node.url } } });
      expect(again.status).toBe(200);
      expect(node.connectionsOpened).toBe(1);
    } finally {
      await slow.services.close();
    }
    await until(() => node.openConnections === 0, 'the pool to close its socket');
  });
});
