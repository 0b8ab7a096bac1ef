// Bounded work per request: nodes that send the largest answers the per-frame and per-block bounds
// accept (blocks of 100,000 extrinsics, event lists and metadata announcing more items than a
// request may decode) make that request a 502 naming the chain and the bound it hit, and /health
// answers while such a request runs. The nodes stand in front of real test chains.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { expectErrorBody, testApp } from '../helpers/app';
import { announcedEvents, bigExtrinsics, blockAnswer, hexAnswer, LONE_EXTRINSIC, LONE_EXTRINSIC_HASH, manyExtrinsics, metadataAnswer } from '../support/hostile-answers';
import type { HostileNode } from '../support/hostile-node';
import { EVENTS_KEY } from '../support/test-blocks';
import type { TestChain } from '../support/test-chain';
import { serverSet, until } from './helpers';

const servers = serverSet();
const { app, services } = testApp();
let polkadot: TestChain;
let assetHub: TestChain;

beforeAll(async () => {
  [polkadot, assetHub] = await Promise.all([servers.chain('Polkadot'), servers.chain('AssetHubPolkadot')]);
});
afterAll(async () => {
  await services.close();
  await servers.closeAll();
});

const hugeExtrinsics = manyExtrinsics();

const statusBody = (node: HostileNode, extra: Record<string, unknown> = {}) => ({
  from: 'Polkadot',
  to: 'AssetHubPolkadot',
  txHash: `0x${'ab'.repeat(32)}`,
  options: { development: true, apiOverrides: { Polkadot: node.url, AssetHubPolkadot: assetHub.url } },
  ...extra,
});

describe('REQUEST_MAX_CHAIN_BYTES and REQUEST_MAX_CHAIN_ITEMS', () => {
  it('default to 64 MB and 100,000 items; the bytes are a size', () => {
    expect(loadConfig({})).toMatchObject({ REQUEST_MAX_CHAIN_BYTES: 64 * 1024 * 1024, REQUEST_MAX_CHAIN_ITEMS: 100_000 });
    expect(loadConfig({ REQUEST_MAX_CHAIN_BYTES: '8mb' }).REQUEST_MAX_CHAIN_BYTES).toBe(8 * 1024 * 1024);
    expect(() => loadConfig({ REQUEST_MAX_CHAIN_BYTES: '10' })).toThrow(/^Invalid configuration: REQUEST_MAX_CHAIN_BYTES: /);
    expect(() => loadConfig({ REQUEST_MAX_CHAIN_ITEMS: '0' })).toThrow(/^Invalid configuration: REQUEST_MAX_CHAIN_ITEMS: /);
  });
});

describe('a status lookback over blocks of 100,000 extrinsics', () => {
  it('answers 502 naming the chain and REQUEST_MAX_CHAIN_ITEMS; /health answers while it runs', async () => {
    // The first block goes at once; the others wait until /health has answered, while the service
    // works through the first.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let blocks = 0;
    const node = await servers.hostile({
      upstream: polkadot.url,
      onRequest: (frame) => (frame.method === 'chain_getBlock' ? { send: blockAnswer(frame, hugeExtrinsics), after: blocks++ === 0 ? undefined : released } : 'forward'),
    });
    let settled = false;
    const status = request(app)
      .post('/v5/x-transfer/status')
      .send(statusBody(node))
      .then((res) => {
        settled = true;
        return res;
      });
    await until(() => node.requests.includes('chain_getBlock'), 'the lookback reading blocks');
    const health = await request(app).get('/health');
    expect(health.status).toBe(200);
    expect(settled, '/health answered only after the lookback ended').toBe(false);
    release();
    const res = await status;
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/^Chain Polkadot sent more than 100000 items to decode for this one request \(REQUEST_MAX_CHAIN_ITEMS; 100000 extrinsics at once\)/);
  });

  it('blocks whose extrinsics add up past REQUEST_MAX_CHAIN_BYTES: 502 naming the chain and that bound', async () => {
    // 8 blocks of 2 MB hex each, under the per-frame bound, over an 8 MB request budget together.
    const big = bigExtrinsics(1, 1024 * 1024);
    const node = await servers.hostile({
      upstream: polkadot.url,
      onRequest: (frame) => (frame.method === 'chain_getBlock' ? { send: blockAnswer(frame, big) } : 'forward'),
    });
    const small = testApp({ REQUEST_MAX_CHAIN_BYTES: '8mb' });
    try {
      const res = await request(small.app).post('/v5/x-transfer/status').send(statusBody(node));
      expectErrorBody(res.body, 502, 'ChainResponseError');
      expect(res.body.message).toMatch(/^Chain Polkadot sent more than 8388608 bytes for this one request \(REQUEST_MAX_CHAIN_BYTES\)/);
    } finally {
      await small.services.close();
    }
  });
});

describe('large block frames (skimmed by the frame check, parsed once by the client)', () => {
  const nodeSendingBlock = (extrinsics: string) =>
    servers.hostile({ upstream: polkadot.url, onRequest: (frame) => (frame.method === 'chain_getBlock' ? { send: blockAnswer(frame, extrinsics) } : 'forward') });
  const megabyteOfHex = '00'.repeat(1024 * 1024);

  it('not JSON inside a long string (a raw control character): 502 naming the chain; /health answers', async () => {
    const node = await nodeSendingBlock(`["0x${megabyteOfHex}\u0001"]`);
    const res = await request(app).post('/v5/x-transfer/status').send(statusBody(node));
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/^Chain Polkadot .*(JSON|could not handle)/);
    expect((await request(app).get('/health')).status).toBe(200);
  });

  it.each([
    ['a character that is not hex past the first megabyte', `0x${megabyteOfHex}0g`],
    ['an odd number of digits', `0x${megabyteOfHex}0`],
    ['no bytes', '0x'],
  ])('an extrinsic of %s: 502 naming the chain and the extrinsic', async (_, extrinsic) => {
    const node = await nodeSendingBlock(JSON.stringify([extrinsic]));
    const res = await request(app).post('/v5/x-transfer/status').send(statusBody(node));
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/^Chain Polkadot answered chain_getBlock with something this service cannot use: extrinsic 0 is "0x.*, not hex bytes$/);
  });
});

describe('an answer longer than what its request may still read', () => {
  it('is refused by its length before it is parsed: 502 naming REQUEST_MAX_CHAIN_BYTES, the connection kept', async () => {
    // The first block fits an 8 MB budget; the second would not, and is not JSON either: parsed,
    // it would fail the connection ("could not handle") instead of reading as the budget's 502.
    const megabytes = (n: number) => '00'.repeat(n * 1024 * 1024);
    let blocks = 0;
    const node = await servers.hostile({
      upstream: polkadot.url,
      onRequest: (frame) => (frame.method === 'chain_getBlock' ? { send: blockAnswer(frame, blocks++ === 0 ? `["0x${megabytes(2.5)}"]` : `["0x${megabytes(2.5)}\u0001"]`) } : 'forward'),
    });
    const small = testApp({ REQUEST_MAX_CHAIN_BYTES: '8mb' });
    try {
      const res = await request(small.app).post('/v5/x-transfer/status').send(statusBody(node));
      expectErrorBody(res.body, 502, 'ChainResponseError');
      expect(res.body.message).toMatch(/^Chain Polkadot sent more than 8388608 bytes for this one request \(REQUEST_MAX_CHAIN_BYTES\)/);
      expect(blocks).toBe(2);
      expect(node.openConnections).toBe(1);
    } finally {
      await small.services.close();
    }
  });
});

describe('an events decode', () => {
  it('System.Events announcing more records than the request may decode: 502 before decoding them', async () => {
    // The block holds the extrinsic asked for, so its events are read.
    const events = announcedEvents(150_000);
    const node = await servers.hostile({
      upstream: polkadot.url,
      onRequest: (frame) => {
        if (frame.method === 'chain_getBlock') return { send: blockAnswer(frame, JSON.stringify([LONE_EXTRINSIC])) };
        if (frame.method === 'state_getStorage' && (frame.params as unknown[])[0] === EVENTS_KEY) return { send: hexAnswer(frame, events) };
        return 'forward';
      },
    });
    const res = await request(app)
      .post('/v5/x-transfer/status')
      .send(statusBody(node, { txHash: LONE_EXTRINSIC_HASH, blockHash: `0x${'cd'.repeat(32)}` }));
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/^Chain Polkadot sent more than 100000 items to decode for this one request \(REQUEST_MAX_CHAIN_ITEMS; 150000 event records at once, 25 items each\)/);
  });
});

describe('a metadata read', () => {
  it('metadata v15 announcing more types than the request may decode: 502 before merkleizing it', async () => {
    const answer = metadataAnswer(200_000);
    // polkadot.js reads the metadata too when it connects: that first read gets the chain's own.
    let reads = 0;
    const node = await servers.hostile({
      upstream: polkadot.url,
      onRequest: (frame) =>
        frame.method === 'state_call' && (frame.params as unknown[])[0] === 'Metadata_metadata_at_version' && reads++ > 0 ? { send: hexAnswer(frame, answer) } : 'forward',
    });
    const res = await request(app)
      .post('/v5/metadata-hash')
      .send({ chain: 'Polkadot', options: { development: true, apiOverrides: { Polkadot: node.url } } });
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toMatch(/^Chain Polkadot sent more than 100000 items to decode for this one request \(REQUEST_MAX_CHAIN_ITEMS; 200000 metadata types at once\)/);
    expect((await request(app).get('/health')).status).toBe(200);
  });

  it('metadata longer than the request may read is refused by its length: 502 naming REQUEST_MAX_CHAIN_BYTES, the connection kept', async () => {
    // Not JSON inside its long string either: parsed, it would fail the connection instead.
    const answer = `${metadataAnswer(100, 2 * 1024 * 1024)}\u0001`;
    let reads = 0;
    const node = await servers.hostile({
      upstream: polkadot.url,
      onRequest: (frame) =>
        frame.method === 'state_call' && (frame.params as unknown[])[0] === 'Metadata_metadata_at_version' && reads++ > 0 ? { send: hexAnswer(frame, answer) } : 'forward',
    });
    const small = testApp({ REQUEST_MAX_CHAIN_BYTES: '2mb' });
    try {
      const res = await request(small.app)
        .post('/v5/metadata-hash')
        .send({ chain: 'Polkadot', options: { development: true, apiOverrides: { Polkadot: node.url } } });
      expectErrorBody(res.body, 502, 'ChainResponseError');
      expect(res.body.message).toMatch(/^Chain Polkadot sent more than 2097152 bytes for this one request \(REQUEST_MAX_CHAIN_BYTES\)/);
      expect(node.openConnections).toBe(1);
    } finally {
      await small.services.close();
    }
  });
});
