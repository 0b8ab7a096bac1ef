// Every queue event shape tracking reads, decoded from real SCALE with the metadata that declares
// it: polkadot-sdk 1.0 parachains (named fields, message_hash and message_id), 0.9.42 parachains
// (`Option` hashes, `message_id` only) and relays (`Ump`, unnamed fields), and today's
// `cumulusXcm.ExecutedDownward` with its v5 outcome. What tracking keeps is the outcome: the ids
// it can be matched by and why it failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@polkadot/types-codec/types';
import { ReadBudget } from '../../src/service/sdk-calls/read-budget';
import { decodeEvents } from '../../src/service/status/chain-events';
import { encodeEvents, type EventSpec } from '../support/test-blocks';
import { startTestChain, type TestChain, type TestChainName, type TestChainOptions } from '../support/test-chain';
import { PARENT, executedDownward, executedUpward, sentWithoutId, upwardMessagesReceived, xcmpQueueFail, xcmpQueueSuccess, type Hex } from '../support/xcm-events';

const chains: TestChain[] = [];
async function chain(name: TestChainName, queues?: TestChainOptions['queues']): Promise<TestChain> {
  const started = await startTestChain(name, queues ? { queues } : {});
  chains.push(started);
  return started;
}

let cumulus10: TestChain;
let para0942: TestChain;
let relay0942: TestChain;
let today: TestChain;
beforeAll(async () => {
  cumulus10 = await chain('AssetHubPolkadot', 'cumulus-1.0');
  para0942 = await chain('AssetHubKusama', 'polkadot-0.9.42');
  relay0942 = await chain('Kusama', 'polkadot-0.9.42');
  today = await chain('AssetHubPolkadot');
});
afterAll(async () => {
  await Promise.all(chains.map((c) => c.close()));
});

/** The facts tracking reads from `events` encoded as `chain`'s runtime stores them. */
async function facts(chain: TestChain, events: EventSpec[]) {
  const registry = chain.registry as unknown as Registry;
  const bytes = Buffer.from(encodeEvents(chain.registry, events).slice(2), 'hex');
  const decoded = await decodeEvents(registry, chain.chain, bytes, new ReadBudget({ maxBytes: 1e9, maxItems: 1e9 }));
  return decoded.map((e) => ({ name: e.name, fact: e.fact }));
}

const HASH = `0x${'11'.repeat(32)}` as Hex;
const ID = `0x${'22'.repeat(32)}` as Hex;
const W = { refTime: 1, proofSize: 1 };

describe('older queue events: the outcome tracking reads', () => {
  it('polkadot-sdk 1.0 parachain: xcmpQueue and dmpQueue name the message by message_id and message_hash', async () => {
    expect(
      await facts(cumulus10, [
        xcmpQueueSuccess({ hash: HASH, id: ID }),
        xcmpQueueFail({ hash: HASH, id: ID }, 'TooExpensive'),
        { phase: 0, pallet: 'XcmpQueue', name: 'BadFormat', fields: { message_hash: HASH } },
        executedDownward({ hash: HASH, id: ID }, { Error: 'Barrier' }),
        { phase: 0, pallet: 'DmpQueue', name: 'InvalidFormat', fields: { message_hash: HASH } },
        { phase: 0, pallet: 'DmpQueue', name: 'WeightExhausted', fields: { message_hash: HASH, message_id: ID, remaining_weight: W, required_weight: W } },
      ]),
    ).toEqual([
      { name: 'xcmpQueue.Success', fact: { kind: 'outcome', ids: [ID, HASH] } },
      { name: 'xcmpQueue.Fail', fact: { kind: 'outcome', ids: [ID, HASH], failure: 'TooExpensive' } },
      { name: 'xcmpQueue.BadFormat', fact: { kind: 'outcome', ids: [HASH], failure: 'BadFormat' } },
      { name: 'dmpQueue.ExecutedDownward', fact: { kind: 'outcome', ids: [ID, HASH], failure: 'Barrier' } },
      { name: 'dmpQueue.InvalidFormat', fact: { kind: 'outcome', ids: [HASH], failure: 'InvalidFormat' } },
      // Still queued, to run later: it settles nothing.
      { name: 'dmpQueue.WeightExhausted', fact: undefined },
    ]);
  });

  it('polkadot 0.9.42 parachain: Option hashes, message_id as the only id, and a Sent without one', async () => {
    expect(
      await facts(para0942, [
        { phase: 0, pallet: 'XcmpQueue', name: 'XcmpMessageSent', fields: { message_hash: HASH } },
        xcmpQueueSuccess({ hash: HASH }),
        { phase: 0, pallet: 'XcmpQueue', name: 'Success', fields: { message_hash: null, weight: W } },
        executedDownward({ hash: ID }, { Incomplete: 'FailedToTransactAsset' }),
        sentWithoutId('PolkadotXcm', 0, PARENT),
      ]),
    ).toEqual([
      { name: 'xcmpQueue.XcmpMessageSent', fact: { kind: 'message-sent', messageId: HASH } },
      { name: 'xcmpQueue.Success', fact: { kind: 'outcome', ids: [HASH] } },
      // No hash: nothing can match it.
      { name: 'xcmpQueue.Success', fact: { kind: 'outcome', ids: [] } },
      { name: 'dmpQueue.ExecutedDownward', fact: { kind: 'outcome', ids: [ID], failure: 'FailedToTransactAsset' } },
      { name: 'polkadotXcm.Sent', fact: { kind: 'sent', destination: { parents: 1, interior: { here: null } } } },
    ]);
  });

  it('polkadot 0.9.42 relay: ump events with unnamed fields', async () => {
    expect(
      await facts(relay0942, [
        upwardMessagesReceived(1000, 1),
        executedUpward(HASH, 'Complete'),
        executedUpward(ID, { Incomplete: 'Barrier' }),
        { phase: 1, pallet: 'Ump', name: 'UnsupportedVersion', fields: { 0: ID } },
      ]),
    ).toEqual([
      { name: 'ump.UpwardMessagesReceived', fact: undefined },
      { name: 'ump.ExecutedUpward', fact: { kind: 'outcome', ids: [HASH] } },
      { name: 'ump.ExecutedUpward', fact: { kind: 'outcome', ids: [ID], failure: 'Barrier' } },
      { name: 'ump.UnsupportedVersion', fact: { kind: 'outcome', ids: [ID], failure: 'UnsupportedVersion' } },
    ]);
  });

  it("today's cumulusXcm.ExecutedDownward(id, outcome): the error inside a v5 InstructionError", async () => {
    const incomplete = { Incomplete: { used: W, error: { index: 2, error: { Barrier: null } } } };
    expect(
      await facts(today, [
        { phase: 0, pallet: 'CumulusXcm', name: 'ExecutedDownward', fields: { 0: ID, 1: { Complete: { used: W } } } },
        { phase: 0, pallet: 'CumulusXcm', name: 'ExecutedDownward', fields: { 0: HASH, 1: incomplete } },
        { phase: 0, pallet: 'CumulusXcm', name: 'ExecutedDownward', fields: { 0: HASH, 1: { Error: { index: 0, error: { TooManyAssets: null } } } } },
      ]),
    ).toEqual([
      { name: 'cumulusXcm.ExecutedDownward', fact: { kind: 'outcome', ids: [ID] } },
      { name: 'cumulusXcm.ExecutedDownward', fact: { kind: 'outcome', ids: [HASH], failure: 'Barrier' } },
      { name: 'cumulusXcm.ExecutedDownward', fact: { kind: 'outcome', ids: [HASH], failure: 'TooManyAssets' } },
    ]);
  });
});
