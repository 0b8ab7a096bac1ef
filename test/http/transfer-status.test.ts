// POST /x-transfer/status answered at once: a transfer built with our own POST /x-transfer, signed
// as a wallet signs it, included in a block the test chain produces, and its message processed (or
// not) on the chains after it. Every scenario is asked in both families, which share one body.
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { statusInBothFamilies } from '../helpers/status-both-families';
import { ALICE, DOT, signedTransfer } from '../helpers/transfer-status';
import { type TestChainName } from '../support/test-chain';
import { chainsForFile } from '../support/chains-for-file';
import { BASE_TIMESTAMP, BLOCK_MS } from '../support/test-blocks';
import {
  PARENT,
  assetsTrapped,
  child,
  deposit,
  extrinsicFailed,
  extrinsicSuccess,
  processed,
  processingFailed,
  sent,
  sibling,
  signAsAlice,
  topicOf,
  xcmpMessageSent,
} from '../support/xcm-events';

const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'BridgeHubPolkadot'];
const { app, services } = testApp();
const { chains, overrides } = chainsForFile(NAMES, services);

const options = { development: true, apiOverrides: overrides };

const statusOf = (body: Record<string, unknown>) => statusInBothFamilies(app, options, body);
const build = (origin: TestChainName, body: Record<string, unknown>) => signedTransfer(app, chains[origin], body, overrides);

describe('POST /x-transfer/status: delivered transfers', () => {
  it('a teleport Polkadot -> AssetHubPolkadot, found by its block and by lookback; another message in the same block is not taken for it', async () => {
    const tx = await build('Polkadot', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) } });
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
    const other = topicOf(`0x${'ab'.repeat(32)}`);
    const dest = chains.AssetHubPolkadot.produceBlock({
      events: [assetsTrapped('PolkadotXcm', `0x${'cd'.repeat(32)}`, PARENT), processed(other, { Parent: null }, false), deposit('initialization', ALICE, DOT), processed(tx.topic, { Parent: null }, true)],
    });
    const expected = {
      status: 'delivered',
      final: true,
      messageId: tx.topic,
      legs: [
        { chain: 'Polkadot', role: 'origin', state: 'success', blockNumber: origin.number, blockHash: origin.hash, extrinsicIndex: 0, events: ['xcmPallet.Sent', 'system.ExtrinsicSuccess'] },
        { chain: 'AssetHubPolkadot', role: 'destination', state: 'success', blockNumber: dest.number, blockHash: dest.hash, events: ['balances.Minted', 'messageQueue.Processed'] },
      ],
    };
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash })).toEqual(expected);
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash })).toEqual(expected);
  });

  it('a destination younger than TRACK_MAX_BLOCKS, whose every block is newer than the origin block: read from genesis, which has no Timestamp.Now', async () => {
    const tx = await build('Polkadot', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) } });
    // Stamped between the destination's genesis and its block #1, as on chains started together.
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)], timestamp: BASE_TIMESTAMP + BLOCK_MS / 2 });
    const dest = chains.AssetHubPolkadot.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash })).toMatchObject({
      status: 'delivered',
      final: true,
      legs: [{ chain: 'Polkadot', state: 'success' }, { chain: 'AssetHubPolkadot', state: 'success', blockHash: dest.hash }],
    });
  });

  it('a reserve transfer AssetHubPolkadot -> Hydration (USDT)', async () => {
    const tx = await build('AssetHubPolkadot', { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' } });
    const origin = chains.AssetHubPolkadot.produceBlock({
      extrinsics: [tx.hex],
      events: [sent('PolkadotXcm', 0, sibling(2034), tx.topic), xcmpMessageSent(0, tx.topic), extrinsicSuccess(0)],
    });
    const dest = chains.Hydration.produceBlock({ events: [deposit('initialization', ALICE, 2_500_000n), processed(tx.topic, { Sibling: 1000 }, true)] });
    expect(await statusOf({ from: 'AssetHubPolkadot', to: 'Hydration', txHash: tx.hash, blockHash: origin.hash })).toEqual({
      status: 'delivered',
      final: true,
      messageId: tx.topic,
      legs: [
        { chain: 'AssetHubPolkadot', role: 'origin', state: 'success', blockNumber: origin.number, blockHash: origin.hash, extrinsicIndex: 0, events: ['polkadotXcm.Sent', 'xcmpQueue.XcmpMessageSent', 'system.ExtrinsicSuccess'] },
        { chain: 'Hydration', role: 'destination', state: 'success', blockNumber: dest.number, blockHash: dest.hash, events: ['balances.Minted', 'messageQueue.Processed'] },
      ],
    });
  });

  it('DOT Polkadot -> Hydration through the asset hub: the hop forwards the message under the same topic', async () => {
    const tx = await build('Polkadot', { from: 'Polkadot', to: 'Hydration', currency: { symbol: 'DOT', amount: String(3n * DOT) }, senderAddress: ALICE });
    const remark = await signAsAlice(chains.Polkadot, '0x0000040100', 10_000);
    // The transfer is the second extrinsic of its block.
    const origin = chains.Polkadot.produceBlock({ extrinsics: [remark.hex, tx.hex], events: [extrinsicSuccess(0), sent('XcmPallet', 1, child(1000), tx.topic), extrinsicSuccess(1)] });
    const hop = chains.AssetHubPolkadot.produceBlock({ events: [xcmpMessageSent('initialization', tx.topic), processed(tx.topic, { Parent: null }, true)] });
    const dest = chains.Hydration.produceBlock({ events: [processed(tx.topic, { Sibling: 1000 }, true)] });
    const answer = await statusOf({ from: 'Polkadot', to: 'Hydration', txHash: tx.hash, blockHash: origin.hash });
    expect(answer).toMatchObject({
      status: 'delivered',
      final: true,
      messageId: tx.topic,
      legs: [
        { chain: 'Polkadot', role: 'origin', state: 'success', extrinsicIndex: 1, events: ['xcmPallet.Sent', 'system.ExtrinsicSuccess'] },
        { chain: 'AssetHubPolkadot', role: 'hop', state: 'success', blockHash: hop.hash, events: ['xcmpQueue.XcmpMessageSent', 'messageQueue.Processed'] },
        { chain: 'Hydration', role: 'destination', state: 'success', blockHash: dest.hash, events: ['messageQueue.Processed'] },
      ],
    });
  });

  it('a local transfer is one leg, delivered once its extrinsic succeeded', async () => {
    const tx = await build('Polkadot', { from: 'Polkadot', to: 'Polkadot', currency: { symbol: 'DOT', amount: String(DOT / 2n) } });
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [deposit(0, ALICE, DOT / 2n), extrinsicSuccess(0)] });
    expect(await statusOf({ from: 'Polkadot', to: 'Polkadot', txHash: tx.hash, blockHash: origin.hash })).toEqual({
      status: 'delivered',
      final: true,
      legs: [{ chain: 'Polkadot', role: 'origin', state: 'success', blockNumber: origin.number, blockHash: origin.hash, extrinsicIndex: 0, events: ['balances.Minted', 'system.ExtrinsicSuccess'] }],
    });
  });

  it('a transfer to Ethereum is bridged once the bridge hub accepted it, and says the rest is not followed', async () => {
    const tx = await signAsAlice(chains.AssetHubPolkadot, '0x0000040200', 20_000);
    const topic = topicOf(tx.hash);
    const ethereum = { parents: 2, interior: { X1: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }] } };
    const origin = chains.AssetHubPolkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('PolkadotXcm', 0, ethereum, topic), xcmpMessageSent(0, topic), extrinsicSuccess(0)] });
    chains.BridgeHubPolkadot.produceBlock({ events: [processed(topic, { Sibling: 1000 }, true)] });
    const answer = (await statusOf({ from: 'AssetHubPolkadot', to: 'Ethereum', txHash: tx.hash, blockHash: origin.hash })) as { status: string; legs: { chain: string; role: string; state: string }[]; note: string };
    expect(answer.status).toBe('bridged');
    expect(answer.legs.map((l) => [l.chain, l.role, l.state])).toEqual([
      ['AssetHubPolkadot', 'origin', 'success'],
      ['BridgeHubPolkadot', 'bridge', 'success'],
    ]);
    expect(answer.note).toMatch(/beyond the bridge is not followed/);
  });
});

describe('POST /x-transfer/status: failures', () => {
  const teleport = async (amount: bigint) => {
    const tx = await build('Polkadot', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(amount) } });
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
    return { tx, origin, ask: () => statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash }) };
  };

  it('the destination processes the message without success: failed, final', async () => {
    const { tx, ask } = await teleport(4n * DOT);
    const dest = chains.AssetHubPolkadot.produceBlock({ events: [processed(tx.topic, { Parent: null }, false)] });
    expect(await ask()).toMatchObject({
      status: 'failed',
      final: true,
      legs: [{ state: 'success' }, { chain: 'AssetHubPolkadot', state: 'failed', blockHash: dest.hash, error: { reason: 'processed without success' }, events: ['messageQueue.Processed'] }],
    });
  });

  it('the destination fails to process the message (ProcessingFailed): failed, with what the chain reports', async () => {
    const { tx, ask } = await teleport(5n * DOT);
    chains.AssetHubPolkadot.produceBlock({ events: [processingFailed(tx.topic, { Parent: null }, 'Unsupported')] });
    expect(await ask()).toMatchObject({ status: 'failed', final: true, legs: [{ state: 'success' }, { state: 'failed', error: { reason: 'Unsupported' }, events: ['messageQueue.ProcessingFailed'] }] });
  });

  it('assets trapped on the destination: trapped, the leg names the assets hash', async () => {
    const { tx, ask } = await teleport(6n * DOT);
    const trap = `0x${'ee'.repeat(32)}` as const;
    chains.AssetHubPolkadot.produceBlock({ events: [assetsTrapped('PolkadotXcm', trap, PARENT), processed(tx.topic, { Parent: null }, false)] });
    const answer = (await ask()) as { status: string; legs: { state: string; trapped?: { hash: string }; events: string[] }[] };
    expect(answer).toMatchObject({ status: 'trapped', final: true });
    expect(answer.legs[1]).toMatchObject({ state: 'failed', trapped: { hash: trap }, events: ['polkadotXcm.AssetsTrapped', 'messageQueue.Processed'] });
  });

  it('the extrinsic fails on the origin: its module error decoded with the origin metadata', async () => {
    const tx = await build('Polkadot', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(7n * DOT) } });
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [extrinsicFailed(chains.Polkadot, 0, 'XcmPallet', 'TooManyAssets')] });
    const answer = (await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash })) as { legs: { error: { message: string } }[] };
    expect(answer).toEqual({
      status: 'failed',
      final: true,
      legs: [
        {
          chain: 'Polkadot',
          role: 'origin',
          state: 'failed',
          blockNumber: origin.number,
          blockHash: origin.hash,
          extrinsicIndex: 0,
          events: ['system.ExtrinsicFailed'],
          error: { pallet: 'XcmPallet', name: 'TooManyAssets', message: expect.stringMatching(/\w/) },
        },
      ],
    });
    expect(answer.legs[0]?.error.message).not.toBe('TooManyAssets');
  });

  it('a message not processed yet: in flight, not final', async () => {
    const { tx, ask } = await teleport(8n * DOT);
    expect(await ask()).toEqual({
      status: 'in-flight',
      final: false,
      messageId: tx.topic,
      legs: [expect.objectContaining({ chain: 'Polkadot', state: 'success' }), { chain: 'AssetHubPolkadot', role: 'destination', state: 'pending', events: [] }],
    });
  });
});

describe('POST /x-transfer/status: not found', () => {
  const unknownTx = () => topicOf(`0x${Date.now().toString(16).padStart(64, '0')}`);
  const notFound = { chain: 'Polkadot', role: 'origin', state: 'not-found', events: [] };

  it('in the given block: final', async () => {
    const block = chains.Polkadot.produceBlock();
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: unknownTx(), blockHash: block.hash })).toEqual({ status: 'not-found', final: true, legs: [notFound] });
  });

  it('a block hash the origin does not know: 200 not-found, final', async () => {
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: unknownTx(), blockHash: `0x${'99'.repeat(32)}` })).toEqual({ status: 'not-found', final: true, legs: [notFound] });
  });

  it('in the last TRACK_LOOKBACK_BLOCKS blocks: not final (a later block may include it)', async () => {
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: unknownTx() })).toEqual({ status: 'not-found', final: false, legs: [notFound] });
  });
});

describe('POST /x-transfer/status: input', () => {
  it.each(FAMILIES)('%s: a txHash that is not 0x + 64 hex digits, and an unknown chain, are 400s naming the field', async (family) => {
    const res = await request(app).post(`/${family}/x-transfer/status`).send({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: '0x1234' });
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: 'body.txHash', message: 'must be a hash: 0x and 64 hex digits' }]);
    const unknown = await request(app).post(`/${family}/x-transfer/status`).send({ from: 'Polkadott', to: 'AssetHubPolkadot', txHash: `0x${'00'.repeat(32)}` });
    expectErrorBody(unknown.body, 400, 'UnknownChainError');
    expect(unknown.body.details[0].path).toBe('body.from');
  });

  it.each(FAMILIES)('%s: an EVM-signed transaction (from Ethereum) is a 400 UnsupportedOperationError saying so', async (family) => {
    const res = await request(app).post(`/${family}/x-transfer/status`).send({ from: 'Ethereum', to: 'AssetHubPolkadot', txHash: `0x${'00'.repeat(32)}` });
    expectErrorBody(res.body, 400, 'UnsupportedOperationError');
    expect(res.body.message).toMatch(/EVM-signed transaction is not supported yet/);
  });
});

describe('POST /x-transfer/status and the rate limits', () => {
  const limited = testApp({ RATE_LIMIT_CHAIN_PER_MINUTE: '1' });
  afterAll(() => limited.services.close());

  it('counts against the chain-dialling limit, in both families', async () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: '0x12' };
    expect((await request(limited.app).post('/v5/x-transfer/status').send(body)).status).toBe(400);
    const refused = await request(limited.app).post('/v2/x-transfer/status').send(body);
    expectErrorBody(refused.body, 429, 'RateLimitExceededError');
    expect(refused.body.message).toMatch(/chain-dialling/);
  });
});
