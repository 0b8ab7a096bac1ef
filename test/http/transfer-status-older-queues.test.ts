// POST /x-transfer/status over chains that still run the queues before `pallet-message-queue`:
// their metadata declares those pallets' events as polkadot-sdk 1.0 (Polkadot's asset hub here) or
// 0.9.42 (Kusama and its asset hub) did, and their blocks carry them. The origin's message is
// matched by the id those events carry: the topic (`message_id`, from 1.0), or the hash the origin
// sent it under (XCMP/UMP) before topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app';
import { statusInBothFamilies } from '../helpers/status-both-families';
import { ALICE, DOT, listen, openStream } from '../helpers/transfer-status';
import { startTestChain, type TestChain, type TestChainName, type TestChainOptions } from '../support/test-chain';
import {
  PARENT,
  assetsTrapped,
  child,
  deposit,
  executedDownward,
  executedUpward,
  extrinsicSuccess,
  processed,
  sent,
  sentWithoutId,
  sibling,
  signAsAlice,
  topicOf,
  upwardMessageSent,
  upwardMessagesReceived,
  xcmpMessageSent,
  xcmpQueueFail,
  xcmpQueueSuccess,
  type Hex,
} from '../support/xcm-events';

const SETUP: [TestChainName, TestChainOptions['queues']][] = [
  ['Polkadot', undefined],
  ['AssetHubPolkadot', 'cumulus-1.0'],
  ['Hydration', undefined],
  ['Kusama', 'polkadot-0.9.42'],
  ['AssetHubKusama', 'polkadot-0.9.42'],
];
const chains = {} as Record<TestChainName, TestChain>;
const overrides: Record<string, string> = {};
const { app, services } = testApp();
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  for (const [name, queues] of SETUP) {
    chains[name] = await startTestChain(name, queues ? { queues } : {});
    overrides[name] = chains[name].url;
  }
  server = await listen(app);
});

afterAll(async () => {
  await server.close();
  await services.close();
  await Promise.all(SETUP.map(([n]) => chains[n]?.close()));
});

const options = { development: true, apiOverrides: overrides };

const statusOf = (body: Record<string, unknown>) => statusInBothFamilies(app, options, body);

/** `system.remark(0x03)` with the chain's own pallet and call indices. */
function remark(chain: TestChain): Hex {
  const system = chain.registry.metadata.pallets.find((p) => p.name.eq('System'))!;
  const call = chain.registry.lookup.getSiType(system.calls.unwrap().type).def.asVariant.variants.find((v) => v.name.eq('remark'))!;
  return `0x${Buffer.from([system.index.toNumber(), call.index.toNumber(), 4, 3]).toString('hex')}`;
}

let nonce = 30_000;
/** A signed extrinsic for the origin's block (a remark: what it did is in the events the test gives it). */
async function extrinsic(origin: TestChainName): Promise<{ hex: Hex; hash: Hex; topic: Hex }> {
  const tx = await signAsAlice(chains[origin], remark(chains[origin]), nonce++);
  return { ...tx, topic: topicOf(tx.hash) };
}

/** The blake2-256 hash a runtime gives a message, made up: offline nothing encodes the real one. */
const hashOf = (tx: { hash: Hex }): Hex => topicOf(`0x${tx.hash.slice(4)}00`);

describe('POST /x-transfer/status: polkadot-sdk 1.0 queues (xcmpQueue, dmpQueue with message_id)', () => {
  it('Polkadot -> AssetHubPolkadot: dmpQueue.ExecutedDownward Complete names the topic as message_id; another message in the block is not taken for it', async () => {
    const tx = await extrinsic('Polkadot');
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
    const other = topicOf(`0x${'ab'.repeat(32)}`);
    const dest = chains.AssetHubPolkadot.produceBlock({
      events: [executedDownward({ hash: other, id: other }, { Error: 'Barrier' }), deposit(0, ALICE, DOT), executedDownward({ hash: hashOf(tx), id: tx.topic }, 'Complete')],
    });
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash })).toEqual({
      status: 'delivered',
      final: true,
      messageId: tx.topic,
      legs: [
        { chain: 'Polkadot', role: 'origin', state: 'success', blockNumber: origin.number, blockHash: origin.hash, extrinsicIndex: 0, events: ['xcmPallet.Sent', 'system.ExtrinsicSuccess'] },
        { chain: 'AssetHubPolkadot', role: 'destination', state: 'success', blockNumber: dest.number, blockHash: dest.hash, events: ['balances.Minted', 'dmpQueue.ExecutedDownward'] },
      ],
    });
  });

  it('an Incomplete outcome fails the leg with its XCM error; assets left in holding make it trapped', async () => {
    const tx = await extrinsic('Polkadot');
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
    const trap = `0x${'cd'.repeat(32)}` as Hex;
    const dest = chains.AssetHubPolkadot.produceBlock({ events: [assetsTrapped('PolkadotXcm', trap, PARENT, 0, 'V3'), executedDownward({ hash: hashOf(tx), id: tx.topic }, { Incomplete: 'UntrustedReserveLocation' })] });
    expect(await statusOf({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash })).toMatchObject({
      status: 'trapped',
      final: true,
      legs: [
        { chain: 'Polkadot', state: 'success' },
        { chain: 'AssetHubPolkadot', state: 'failed', blockHash: dest.hash, events: ['polkadotXcm.AssetsTrapped', 'dmpQueue.ExecutedDownward'], error: { reason: 'UntrustedReserveLocation' }, trapped: { hash: trap } },
      ],
    });
  });

  it('Hydration -> AssetHubPolkadot: xcmpQueue.Success matched by message_id; xcmpQueue.Fail fails the leg with its error', async () => {
    for (const [outcome, expected] of [
      ['success', { status: 'delivered', state: 'success', event: 'xcmpQueue.Success' }],
      ['fail', { status: 'failed', state: 'failed', event: 'xcmpQueue.Fail', error: { reason: 'TooExpensive' } }],
    ] as const) {
      const tx = await extrinsic('Hydration');
      const origin = chains.Hydration.produceBlock({ extrinsics: [tx.hex], events: [sent('PolkadotXcm', 0, sibling(1000), tx.topic), xcmpMessageSent(0, hashOf(tx)), extrinsicSuccess(0)] });
      const ids = { hash: hashOf(tx), id: tx.topic };
      const dest = chains.AssetHubPolkadot.produceBlock({ events: [outcome === 'success' ? xcmpQueueSuccess(ids) : xcmpQueueFail(ids, 'TooExpensive')] });
      const { event, state, status, ...error } = expected;
      expect(await statusOf({ from: 'Hydration', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash })).toEqual({
        status,
        final: true,
        messageId: tx.topic,
        legs: [
          { chain: 'Hydration', role: 'origin', state: 'success', blockNumber: origin.number, blockHash: origin.hash, extrinsicIndex: 0, events: ['polkadotXcm.Sent', 'xcmpQueue.XcmpMessageSent', 'system.ExtrinsicSuccess'] },
          { chain: 'AssetHubPolkadot', role: 'destination', state, blockNumber: dest.number, blockHash: dest.hash, events: [event], ...error },
        ],
      });
    }
  });

  it('Polkadot -> Hydration through the asset hub: the hop executes it from dmpQueue and forwards it under the same topic', async () => {
    const tx = await extrinsic('Polkadot');
    const origin = chains.Polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
    const hop = chains.AssetHubPolkadot.produceBlock({ events: [xcmpMessageSent(0, hashOf(tx)), executedDownward({ hash: hashOf(tx), id: tx.topic }, 'Complete')] });
    const dest = chains.Hydration.produceBlock({ events: [processed(tx.topic, { Sibling: 1000 }, true)] });
    expect(await statusOf({ from: 'Polkadot', to: 'Hydration', txHash: tx.hash, blockHash: origin.hash })).toMatchObject({
      status: 'delivered',
      final: true,
      legs: [
        { chain: 'Polkadot', role: 'origin', state: 'success' },
        { chain: 'AssetHubPolkadot', role: 'hop', state: 'success', blockHash: hop.hash, events: ['xcmpQueue.XcmpMessageSent', 'dmpQueue.ExecutedDownward'] },
        { chain: 'Hydration', role: 'destination', state: 'success', blockHash: dest.hash, events: ['messageQueue.Processed'] },
      ],
    });
  });
});

describe('POST /x-transfer/status: polkadot 0.9.42 queues (ump on the relay, no message ids)', () => {
  it('AssetHubKusama -> Kusama: ump.ExecutedUpward names the hash UpwardMessageSent reported (Sent has no id then)', async () => {
    const tx = await extrinsic('AssetHubKusama');
    const hash = hashOf(tx);
    const origin = chains.AssetHubKusama.produceBlock({ extrinsics: [tx.hex], events: [upwardMessageSent(0, hash), sentWithoutId('PolkadotXcm', 0, PARENT), extrinsicSuccess(0)] });
    const dest = chains.Kusama.produceBlock({ events: [upwardMessagesReceived(1000, 1), executedUpward(hash, 'Complete')] });
    expect(await statusOf({ from: 'AssetHubKusama', to: 'Kusama', txHash: tx.hash, blockHash: origin.hash })).toEqual({
      status: 'delivered',
      final: true,
      messageId: hash,
      legs: [
        { chain: 'AssetHubKusama', role: 'origin', state: 'success', blockNumber: origin.number, blockHash: origin.hash, extrinsicIndex: 0, events: ['parachainSystem.UpwardMessageSent', 'polkadotXcm.Sent', 'system.ExtrinsicSuccess'] },
        { chain: 'Kusama', role: 'destination', state: 'success', blockNumber: dest.number, blockHash: dest.hash, events: ['ump.UpwardMessagesReceived', 'ump.ExecutedUpward'] },
      ],
    });
  });

  it('an upward message the relay stopped with an XCM error, from an extrinsic without a Sent event (transfers executed locally then)', async () => {
    const tx = await extrinsic('AssetHubKusama');
    const hash = hashOf(tx);
    const origin = chains.AssetHubKusama.produceBlock({ extrinsics: [tx.hex], events: [upwardMessageSent(0, hash), extrinsicSuccess(0)] });
    // Received in one block, executed in the next: the leg is the block that executed it.
    chains.Kusama.produceBlock({ events: [upwardMessagesReceived(1000, 1)] });
    const dest = chains.Kusama.produceBlock({ events: [executedUpward(hash, { Error: 'Barrier' })] });
    expect(await statusOf({ from: 'AssetHubKusama', to: 'Kusama', txHash: tx.hash, blockHash: origin.hash })).toMatchObject({
      status: 'failed',
      final: true,
      messageId: hash,
      legs: [
        { chain: 'AssetHubKusama', state: 'success', events: ['parachainSystem.UpwardMessageSent', 'system.ExtrinsicSuccess'] },
        { chain: 'Kusama', role: 'destination', state: 'failed', blockHash: dest.hash, events: ['ump.ExecutedUpward'], error: { reason: 'Barrier' } },
      ],
    });
  });

  it('a stream follows the relay until ump.ExecutedUpward settles the leg', async () => {
    const tx = await extrinsic('AssetHubKusama');
    const hash = hashOf(tx);
    const origin = chains.AssetHubKusama.produceBlock({ extrinsics: [tx.hex], events: [upwardMessageSent(0, hash), extrinsicSuccess(0)] });
    const stream = await openStream(`${server.url}/v5/x-transfer/status`, { from: 'AssetHubKusama', to: 'Kusama', txHash: tx.hash, blockHash: origin.hash, options });
    expect(stream.status).toBe(200);
    expect((await stream.next())?.data).toMatchObject({ chain: 'AssetHubKusama', state: 'success' });
    expect((await stream.next())?.data).toMatchObject({ chain: 'Kusama', state: 'pending' });
    const dest = chains.Kusama.produceBlock({ events: [upwardMessagesReceived(1000, 1), executedUpward(hash, 'Complete')] });
    const leg = await stream.next();
    expect(leg?.event).toBe('leg');
    expect(leg?.data).toEqual({ chain: 'Kusama', role: 'destination', state: 'success', blockNumber: dest.number, blockHash: dest.hash, events: ['ump.UpwardMessagesReceived', 'ump.ExecutedUpward'] });
    expect((await stream.next())?.data).toMatchObject({ status: 'delivered', final: true, messageId: hash });
    expect(await stream.next()).toBeUndefined();
  });

  it('an upward message not executed yet is in flight', async () => {
    const tx = await extrinsic('AssetHubKusama');
    const origin = chains.AssetHubKusama.produceBlock({ extrinsics: [tx.hex], events: [upwardMessageSent(0, hashOf(tx)), extrinsicSuccess(0)] });
    chains.Kusama.produceBlock({ events: [upwardMessagesReceived(1000, 1)] });
    expect(await statusOf({ from: 'AssetHubKusama', to: 'Kusama', txHash: tx.hash, blockHash: origin.hash })).toMatchObject({
      status: 'in-flight',
      final: false,
      legs: [{ state: 'success' }, { chain: 'Kusama', state: 'pending', events: [] }],
    });
  });
});
