// Proof that the blocks a test chain produces read back through a real ApiPromise: the header and
// body, the events decoded with the chain's own metadata, the timestamp, and the head
// subscriptions (counted at the node, released when cancelled or when the socket closes).
import { afterEach, describe, expect, it } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { BASE_TIMESTAMP, BLOCK_MS, EVENTS_KEY, TIMESTAMP_KEY } from './test-blocks';
import { startTestChain, type TestChain, type TestChainName } from './test-chain';
import { extrinsicFailed, extrinsicSuccess, processed, sent, signAsAlice, child, topicOf } from './xcm-events';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function started(name: TestChainName): Promise<{ chain: TestChain; api: ApiPromise }> {
  const chain = await startTestChain(name);
  cleanups.push(() => chain.close());
  const api = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chain.url), noInitWarn: true });
  cleanups.push(() => api.disconnect());
  return { chain, api };
}

type Bytes = { toU8a(bare: boolean): Uint8Array };

interface EventRecordLike {
  phase: { isApplyExtrinsic: boolean; asApplyExtrinsic: { toNumber(): number }; isInitialization: boolean };
  event: { section: string; method: string; data: { toJSON(): unknown } };
}

describe('test chain: produced blocks', () => {
  it('a produced block is the new head, with its extrinsic, its events and its timestamp', async () => {
    const { chain, api } = await started('Polkadot');
    const call = api.tx.system.remark('0x01').method.toHex();
    const { hex, hash } = await signAsAlice(chain, call);
    const topic = topicOf(hash);
    const block = chain.produceBlock({ extrinsics: [hex], events: [sent('XcmPallet', 0, child(1000), topic), extrinsicSuccess(0)] });
    expect(block.number).toBe(101);
    expect(block.timestamp).toBe(BASE_TIMESTAMP + 101 * BLOCK_MS);

    expect((await api.rpc.chain.getBlockHash(101)).toHex()).toBe(block.hash);
    expect((await api.rpc.chain.getHeader()).number.toNumber()).toBe(101);
    const signed = await api.rpc.chain.getBlock(block.hash);
    const [extrinsic] = signed.block.extrinsics;
    expect(extrinsic?.hash.toHex()).toBe(hash);
    expect(`${extrinsic?.method.section}.${extrinsic?.method.method}`).toBe('system.remark');
    expect(extrinsic?.signer.toString()).toBe('15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5');

    const raw = (await api.rpc.state.getStorage(EVENTS_KEY, block.hash)) as unknown as Bytes;
    const records = api.registry.createType('Vec<EventRecord>', raw.toU8a(true)) as unknown as EventRecordLike[];
    expect(records.map((r) => `${r.event.section}.${r.event.method}`)).toEqual(['xcmPallet.Sent', 'system.ExtrinsicSuccess']);
    expect(records[0]?.phase.asApplyExtrinsic.toNumber()).toBe(0);
    expect((records[0]?.event.data.toJSON() as unknown[])[3]).toBe(topic);

    const now = (await api.rpc.state.getStorage(TIMESTAMP_KEY, block.hash)) as unknown as Bytes;
    expect(api.registry.createType('u64', now.toU8a(true)).toNumber()).toBe(block.timestamp);
    const earlier = (await api.rpc.state.getStorage(TIMESTAMP_KEY, chain.blockHash(7)!)) as unknown as Bytes;
    expect(api.registry.createType('u64', earlier.toU8a(true)).toNumber()).toBe(BASE_TIMESTAMP + 7 * BLOCK_MS);
    // Genesis holds none: the first block's inherent sets it.
    expect(((await api.rpc.state.getStorage(TIMESTAMP_KEY, chain.blockHash(0)!)) as unknown as { isNone: boolean }).isNone).toBe(true);
  });

  it('events of a parachain and a module error encode with its own metadata (Asset Hub, Hydration)', async () => {
    for (const name of ['AssetHubPolkadot', 'Hydration'] as const) {
      const { chain, api } = await started(name);
      const topic = topicOf(`0x${'11'.repeat(32)}`);
      const block = chain.produceBlock({ events: [processed(topic, { Sibling: 1000 }, false), extrinsicFailed(chain, 0, 'PolkadotXcm', 'TooManyAssets')] });
      const raw = (await api.rpc.state.getStorage(EVENTS_KEY, block.hash)) as unknown as Bytes;
      const records = api.registry.createType('Vec<EventRecord>', raw.toU8a(true)) as unknown as EventRecordLike[];
      expect(records.map((r) => `${r.event.section}.${r.event.method}`)).toEqual(['messageQueue.Processed', 'system.ExtrinsicFailed']);
      expect(records[0]?.phase.isInitialization).toBe(true);
      const error = (records[1]?.event.data.toJSON() as [{ module: { index: number; error: string } }])[0].module;
      const meta = api.registry.findMetaError({ index: api.registry.createType('u8', error.index), error: api.registry.createType('[u8;4]', error.error) });
      expect(`${meta.section}.${meta.name}`).toBe('polkadotXcm.TooManyAssets');
    }
  });

  it('head subscriptions hear each produced block and are counted until cancelled or their socket closes', async () => {
    const { chain, api } = await started('AssetHubPolkadot');
    // ApiPromise keeps one subscription of its own (the runtime version).
    await until(() => chain.openSubscriptions === 1, "the api's runtime-version subscription");
    const base = chain.openSubscriptions;
    const heads: number[] = [];
    const unsubscribe = await api.rpc.chain.subscribeFinalizedHeads((header) => {
      heads.push(header.number.toNumber());
    });
    await until(() => heads.length === 1, 'the current head');
    expect(chain.openSubscriptions).toBe(base + 1);
    chain.produceBlock();
    chain.produceBlock();
    await until(() => heads.length === 3, 'two new heads');
    expect(heads).toEqual([100, 101, 102]);
    unsubscribe();
    await until(() => chain.openSubscriptions === base, 'the unsubscription');
    await api.rpc.chain.subscribeNewHeads(() => undefined);
    await until(() => chain.openSubscriptions === base + 1, 'a second subscription');
    await api.disconnect();
    await until(() => chain.openSubscriptions === 0, 'the socket to close');
  });
});
