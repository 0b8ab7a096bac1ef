// The sandbox's chains in-process (src/sandbox/network.ts): funded development accounts, a
// transaction pool that checks what a node checks, and the events a submitted transfer leaves on
// each chain, read back with polkadot.js as a wallet reads them.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@polkadot/types/interfaces';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';
import { topicOf } from '../../src/sandbox/xcm-events';

const { Keyring } = createRequire(__filename)('@polkadot/keyring') as typeof import('@polkadot/keyring');
const DOT = 10_000_000_000n;

let sandbox: Sandbox;
let relay: ApiPromise;
let assetHub: ApiPromise;
const keyring = new Keyring({ type: 'sr25519' });

beforeAll(async () => {
  sandbox = await startSandbox({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 200, basePort: 0 });
  const open = (url: string) => polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(url), noInitWarn: true });
  [relay, assetHub] = await Promise.all([open(sandbox.endpoints.Polkadot!), open(sandbox.endpoints.AssetHubPolkadot!)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([relay?.disconnect(), assetHub?.disconnect()]);
  await sandbox?.close();
});

const eventsAt = async (api: ApiPromise, hash: string) => (await api.query.system.events.at(hash)) as unknown as EventRecord[];

/** Resolves once `api`'s head is block `n` or later. */
const headReaches = (api: ApiPromise, n: number): Promise<void> =>
  new Promise((resolve) => {
    const unsubscribe = api.rpc.chain.subscribeNewHeads((header) => {
      if (header.number.toNumber() < n) return;
      void unsubscribe.then((off) => off());
      resolve();
    });
  });

/** The events (`section.method`) of the first block from `from` on that holds MessageQueue.Processed of `topic`. */
async function processedIn(api: ApiPromise, from: number, topic: string): Promise<string[]> {
  for (let n = from; ; n++) {
    await headReaches(api, n);
    const records = await eventsAt(api, (await api.rpc.chain.getBlockHash(n)).toHex());
    if (records.some((r) => r.event.method === 'Processed' && r.event.data[0]!.toHex() === topic)) return records.map((r) => `${r.event.section}.${r.event.method}`);
  }
}

const headOf = async (api: ApiPromise): Promise<number> => (await api.rpc.chain.getHeader()).number.toNumber();

describe('the sandbox chains', () => {
  it('fund the development accounts', async () => {
    // Read at the first block: the file's other tests spend from these accounts, in any order.
    const first = await relay.at(await relay.rpc.chain.getBlockHash(0));
    for (const name of ['Alice', 'Bob', 'Ferdie']) {
      const account = (await first.query.system.account(keyring.addFromUri(`//${name}`).address)) as unknown as { data: { free: { toBigInt(): bigint } } };
      expect(account.data.free.toBigInt()).toBe(10_000n * DOT);
    }
  });

  it('include a watched teleport in the next block, with its events; the message is processed on Asset Hub', async () => {
    const alice = keyring.addFromUri('//Alice');
    const beneficiary = { V5: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: alice.publicKey } }] } } };
    const tx = relay.tx.xcmPallet.limitedTeleportAssets(
      { V5: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } },
      beneficiary,
      { V5: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: DOT } }] },
      0,
      'Unlimited',
    );
    const from = await headOf(assetHub);
    const statuses: string[] = [];
    const inBlock = await new Promise<{ blockHash: string; events: string[] }>((resolve, reject) => {
      tx.signAndSend(alice, (result) => {
        statuses.push(result.status.type);
        if (result.status.isInBlock) resolve({ blockHash: result.status.asInBlock.toHex(), events: result.events.map((e) => `${e.event.section}.${e.event.method}`) });
      }).catch(reject);
    });
    expect(statuses.slice(0, 2)).toEqual(['Ready', 'InBlock']);
    expect(inBlock.events).toEqual(['balances.Withdraw', 'xcmPallet.FeesPaid', 'xcmPallet.Sent', 'transactionPayment.TransactionFeePaid', 'system.ExtrinsicSuccess']);
    const sentEvent = (await eventsAt(relay, inBlock.blockHash)).find((r) => r.event.method === 'Sent')!;
    // Asset Hub processes the message under the same topic a block or two later.
    const processed = await processedIn(assetHub, from, sentEvent.event.data[3]!.toHex());
    // Alice's deposit, then the execution fee deposited to the fee account.
    expect(processed).toEqual(['balances.Minted', 'balances.Minted', 'messageQueue.Processed']);
    // The nonce moved on: the account's next index is 1.
    expect((await relay.rpc.system.accountNextIndex(alice.address)).toNumber()).toBe(1);
  }, 30_000);

  it('trap what a message deposits to an account the chain cannot hold (a 20-byte key on Asset Hub), and keep producing blocks', async () => {
    const charlie = keyring.addFromUri('//Charlie');
    const tx = relay.tx.xcmPallet.limitedTeleportAssets(
      { V5: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } },
      { V5: { parents: 0, interior: { X1: [{ AccountKey20: { network: null, key: `0x${'11'.repeat(20)}` } }] } } },
      { V5: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: DOT } }] },
      0,
      'Unlimited',
    );
    const from = await headOf(assetHub);
    // The sandbox names the message after the extrinsic's hash.
    const topic = topicOf((await tx.signAndSend(charlie)).toHex());
    const processed = await processedIn(assetHub, from, topic);
    // Asset Hub cannot deposit to a 20-byte key (FailedToTransactAsset): the DOT is trapped.
    expect(processed).toEqual(['balances.Minted', 'polkadotXcm.AssetsTrapped', 'messageQueue.Processed']);
  }, 30_000);

  it('refuse a bad signature and a used nonce, as a node does (1010)', async () => {
    const bob = keyring.addFromUri('//Bob');
    const signed = await relay.tx.balances.transferKeepAlive(keyring.addFromUri('//Charlie').address, DOT).signAsync(bob);
    const good = signed.signature.toHex().slice(2);
    const bad = `${good.slice(0, 20)}${good[20] === '0' ? '1' : '0'}${good.slice(21)}`;
    await expect(relay.rpc.author.submitExtrinsic(signed.toHex().replace(good, bad))).rejects.toThrow(/1010: Invalid Transaction: Transaction has a bad signature/);
    await relay.rpc.author.submitExtrinsic(signed);
    await expect(relay.rpc.author.submitExtrinsic(signed)).rejects.toThrow(/1010: Invalid Transaction: Transaction is outdated/);
  });
});
