// What a node sends can end its own connection, never the process or another client's connection.
// Each case used to stop the process (an error RxJS rethrew from a timer: an uncaught exception),
// to keep memory for ever (notifications for subscriptions never asked), or to answer 500 (values
// nested deeper than a decoder or JSON.stringify can walk). Each is asked over a request in flight
// on a hostile node's connection: that request answers 502 naming the chain, the process goes on
// (no uncaught exception, /health answers), and another client's warm connection to a healthy
// chain is still the same connection and still answers.
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNTIME_VERSIONS } from '../../src/chains/frame-check';
import type { Behaviour, HostileNode, RpcFrame } from '../support/hostile-node';
import type { TestChain } from '../support/test-chain';
import { expectErrorBody, testApp } from '../helpers/app';
import { ADDRESS, serverSet, STORAGE_METHODS, until } from './helpers';

const servers = serverSet();
let upstream: TestChain;
let healthy: TestChain;
const app = testApp({ CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000' });

const uncaught: unknown[] = [];
const record = (error: unknown): void => void uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', record);
  [upstream, healthy] = await Promise.all([servers.chain('AssetHubPolkadot'), servers.chain('Polkadot')]);
  // Another client's warm connection, to a chain no hostile node stands in front of.
  expect((await warmClient()).status).toBe(200);
});
afterAll(async () => {
  process.off('uncaughtException', record);
  await app.services.close();
  await servers.closeAll();
});

/** After each case: the process saw no uncaught exception, answers /health, and the warm connection is the same one and answers. */
afterEach(async () => {
  expect(uncaught).toEqual([]);
  expect((await request(app.app).get('/health')).status).toBe(200);
  const warm = await warmClient();
  expect(warm.status, JSON.stringify(warm.body)).toBe(200);
  expect(healthy.connectionsOpened).toBe(1);
});

const warmClient = () =>
  request(app.app)
    .post('/v5/balance/Polkadot')
    .send({ address: ADDRESS, options: { development: true, apiOverrides: { Polkadot: healthy.url } } });

const balance = (node: HostileNode) =>
  request(app.app)
    .post('/v5/balance/AssetHubPolkadot')
    .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: node.url } } });

/** A JSON array nested `depth` levels deep. */
const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const DEEP = deep(300_000);

async function expect502(res: request.Response, node: HostileNode, why: RegExp, chain = 'AssetHubPolkadot'): Promise<void> {
  expect(res.status, JSON.stringify(res.body)).toBe(502);
  expectErrorBody(res.body, 502, 'ChainResponseError');
  expect(res.body.message).toContain(`Chain ${chain}`);
  expect(res.body.message).toMatch(why);
  await until(() => node.openConnections === 0, 'the node\'s connection to close');
}

/**
 * A node in front of the real chain that hands out `SUBSCRIPTION` for the runtime-version
 * subscription ApiPromise makes while connecting, and answers the first storage read (the request
 * in flight) with `onRead` instead.
 */
const SUBSCRIPTION = 'rv-1';
function nodeAnsweringReadWith(onRead: (frame: RpcFrame) => Behaviour): Promise<HostileNode> {
  let spent = false;
  return servers.hostile({
    upstream: upstream.url,
    onRequest: (frame) => {
      if (frame.method === 'state_subscribeRuntimeVersion') return { send: JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: SUBSCRIPTION }) };
      if (spent || !STORAGE_METHODS.has(String(frame.method))) return 'forward';
      spent = true;
      return onRead(frame);
    },
  });
}

const notification = (method: string, subscription: string, result: string): string =>
  `{"jsonrpc":"2.0","method":"${method}","params":{"subscription":"${subscription}","result":${result}}}`;
const version = (specVersion: string, apis = '[]') => `{"specName":"statemint","implName":"statemint","authoringVersion":1,"specVersion":${specVersion},"implVersion":0,"apis":${apis},"transactionVersion":15,"stateVersion":1}`;

describe('a runtime version that does not decode, on the subscription ApiPromise holds (createType(RuntimeVersion) failed in an RxJS pipeline with no error handler)', () => {
  it.each([
    ['specVersion "abc"', version('"abc"'), /could not handle.*specVersion/],
    ['specVersion 1e400', version('1e400'), /could not handle.*specVersion/],
    ['apis [["0xzz","x"]]', version('1', '[["0xzz","x"]]'), /could not handle/],
    ['specVersion a 300,000-deep array', version(DEEP), /nested deeper than 64/],
  ])('%s: the request in flight answers 502 naming the chain; the process serves on', async (_name, result, why) => {
    const node = await nodeAnsweringReadWith(() => ({ send: notification('state_runtimeVersion', SUBSCRIPTION, result) }));
    await expect502(await balance(node), node, why);
  });

  it('specVersion {"a":1} reads as 1, a runtime upgrade: the request answers; the connection, on a shared runtime, is closed instead of decoding the metadata again, and the next request dials afresh', async () => {
    const node = await nodeAnsweringReadWith(() => ({ sendFirst: notification('state_runtimeVersion', SUBSCRIPTION, version('{"a":1}')), then: 'forward' }));
    const res = await balance(node);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await until(() => node.openConnections === 0, 'the retired connection to close');
    expect(node.requests.filter((m) => m === 'state_getMetadata')).toEqual([]);
    expect((await balance(node)).status).toBe(200);
    expect(node.connectionsOpened).toBe(2);
  });
});

describe('a node that keeps announcing new runtime versions (each one made polkadot.js download and decode the metadata again)', () => {
  it(`past ${MAX_RUNTIME_VERSIONS} on one connection it ends: 502 naming the chain; the metadata was read at most that often`, async () => {
    const versions = [1, 2, 3, 4, 5, 6].map((v) => notification('state_runtimeVersion', SUBSCRIPTION, version(String(v))));
    const node = await nodeAnsweringReadWith(() => versions.reduceRight<Behaviour>((then, frame) => ({ sendFirst: frame, then }), 'ignore'));
    await expect502(await balance(node), node, /more than 3 runtime versions announced on one subscription/);
    expect(node.requests.filter((m) => m === 'state_getMetadata').length).toBeLessThanOrEqual(MAX_RUNTIME_VERSIONS);
  });
});

describe('notifications the connection did not subscribe to (polkadot.js kept each for ever, waiting for its id)', () => {
  it.each([
    ['a subscription id never given', notification('state_runtimeVersion', 'never-given', version('1')), /subscription never-given, which was never given/],
    ['a method other than the subscription\'s', notification('state_storage', SUBSCRIPTION, '{"block":"0x00","changes":[]}'), /on a subscription whose notifications are state_runtimeVersion/],
  ])('%s: 502 naming the chain', async (_name, frame, why) => {
    const node = await nodeAnsweringReadWith(() => ({ send: frame }));
    await expect502(await balance(node), node, why);
  });

  it('a flood of them on a warm connection: the first ends it, the next request dials afresh', async () => {
    const flood = Array.from({ length: 200 }, (_, i) => notification('state_storage', `flood-${i}`, `"0x${'00'.repeat(4096)}"`));
    const node = await nodeAnsweringReadWith(() => flood.reduceRight<Behaviour>((then, frame) => ({ sendFirst: frame, then }), 'ignore'));
    await expect502(await balance(node), node, /subscription flood-0, which was never given/);
    node.setBehaviour(() => 'forward');
    expect((await balance(node)).status).toBe(200);
    expect(node.connectionsOpened).toBe(2);
  });
});

describe('values nested 300,000 deep (a decoder, JSON.stringify or polkadot.js\'s error formatting overflowed the stack: 500)', () => {
  it('as a storage value: 502 naming the chain', async () => {
    const node = await nodeAnsweringReadWith((f) => ({ send: `{"jsonrpc":"2.0","id":${JSON.stringify(f.id)},"result":${DEEP}}` }));
    await expect502(await balance(node), node, /nested deeper than 64/);
  });

  it('as the data of a JSON-RPC error: 502 naming the chain', async () => {
    const node = await nodeAnsweringReadWith((f) => ({ send: `{"jsonrpc":"2.0","id":${JSON.stringify(f.id)},"error":{"code":-32000,"message":"boom","data":${DEEP}}}` }));
    await expect502(await balance(node), node, /nested deeper than 64/);
  });

  it('as a notification\'s result on a subscription it was given: 502 naming the chain', async () => {
    const node = await nodeAnsweringReadWith(() => ({ send: notification('state_runtimeVersion', SUBSCRIPTION, DEEP) }));
    await expect502(await balance(node), node, /nested deeper than 64/);
  });

  it('in system_properties while connecting (POST /metadata-hash): 502 naming the chain', async () => {
    const node = await servers.hostile({
      upstream: upstream.url,
      onRequest: (f) => (f.method === 'system_properties' ? { send: `{"jsonrpc":"2.0","id":${JSON.stringify(f.id)},"result":{"tokenSymbol":${DEEP}}}` } : 'forward'),
    });
    const res = await request(app.app)
      .post('/v5/metadata-hash')
      .send({ chain: 'AssetHubPolkadot', options: { development: true, apiOverrides: { AssetHubPolkadot: node.url } } });
    await expect502(res, node, /nested deeper than 64/);
  });

  it('in the storage value GET /x-transfer/para-eth-fees reads: 502 naming the chain', async () => {
    const node = await nodeAnsweringReadWith((f) => ({ send: `{"jsonrpc":"2.0","id":${JSON.stringify(f.id)},"result":${DEEP}}` }));
    const res = await request(app.app).get(`/v5/x-transfer/para-eth-fees?endpoint=${encodeURIComponent(node.url)}&development=true`);
    await expect502(res, node, /nested deeper than 64/);
  });

  it.each(['chain_getFinalizedHead', 'chain_getBlock'])('in the answer to %s during a status lookback: 502 naming the chain', async (method) => {
    const node = await servers.hostile({
      upstream: upstream.url,
      onRequest: (f) => (f.method === method ? { send: `{"jsonrpc":"2.0","id":${JSON.stringify(f.id)},"result":${DEEP}}` } : 'forward'),
    });
    const res = await request(app.app)
      .post('/v5/x-transfer/status')
      .send({ from: 'AssetHubPolkadot', to: 'Polkadot', txHash: `0x${'00'.repeat(32)}`, options: { development: true, apiOverrides: { AssetHubPolkadot: node.url, Polkadot: healthy.url } } });
    await expect502(res, node, /nested deeper than 64/);
  });
});

describe('a call after a bad frame failed the connection (polkadot.js: "WebSocket is not connected", was a 500)', () => {
  it('POST /xcm-fee whose fee query meets the closed connection: 502 naming the chain', async () => {
    const relay = await servers.chain('Polkadot');
    let calls = 0;
    // The connect makes two runtime calls (the metadata); the fee estimate's first one gets a bad frame.
    const node = await servers.hostile({ upstream: relay.url, onRequest: (f) => (f.method === 'state_call' && ++calls === 3 ? { send: 'x' } : 'forward') });
    const res = await request(app.app)
      .post('/v5/xcm-fee')
      .send({
        from: 'Polkadot',
        to: 'AssetHubPolkadot',
        currency: { symbol: 'DOT', amount: '10000000000' },
        address: ADDRESS,
        senderAddress: ADDRESS,
        options: { development: true, apiOverrides: { Polkadot: node.url, AssetHubPolkadot: upstream.url } },
      });
    await expect502(res, node, /cannot use \(.*malformed frame: not JSON/, 'Polkadot');
  });
});
