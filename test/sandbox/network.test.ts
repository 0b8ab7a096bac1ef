// The sandbox's chains in-process (src/sandbox/network.ts): funded development accounts, a
// transaction pool that checks what a node checks, and the events a submitted transfer leaves on
// each chain, read back with polkadot.js as a wallet reads them.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@polkadot/types/interfaces';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';

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

describe('the sandbox chains', () => {
  it('fund the development accounts', async () => {
    for (const name of ['Alice', 'Bob', 'Ferdie']) {
      const account = (await relay.query.system.account(keyring.addFromUri(`//${name}`).address)) as unknown as { data: { free: { toBigInt(): bigint } } };
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
    const statuses: string[] = [];
    const inBlock = await new Promise<{ blockHash: string; events: string[] }>((resolve, reject) => {
      tx.signAndSend(alice, (result) => {
        statuses.push(result.status.type);
        if (result.status.isInBlock) resolve({ blockHash: result.status.asInBlock.toHex(), events: result.events.map((e) => `${e.event.section}.${e.event.method}`) });
      }).catch(reject);
    });
    expect(statuses.slice(0, 2)).toEqual(['Ready', 'InBlock']);
    expect(inBlock.events).toEqual(['xcmPallet.Sent', 'system.ExtrinsicSuccess']);
    const eventsAt = async (api: ApiPromise, hash: string) => (await api.query.system.events.at(hash)) as unknown as EventRecord[];
    const sentEvent = (await eventsAt(relay, inBlock.blockHash)).find((r) => r.event.method === 'Sent')!;
    const topic = sentEvent.event.data[3]!.toHex();
    // Asset Hub processes the message under the same topic a block or two later.
    const processed = await new Promise<string[]>((resolve) => {
      // The header's own hash names the block: the node's hashes are its headers' hashes.
      const unsubscribe = assetHub.rpc.chain.subscribeNewHeads((header) => {
        void eventsAt(assetHub, header.hash.toHex()).then((records) => {
          if (!records.some((r) => r.event.method === 'Processed' && r.event.data[0]!.toHex() === topic)) return;
          void unsubscribe.then((off) => off());
          resolve(records.map((r) => `${r.event.section}.${r.event.method}`));
        });
      });
    });
    expect(processed).toEqual(['balances.Minted', 'messageQueue.Processed']);
    // The nonce moved on: the account's next index is 1.
    expect((await relay.rpc.system.accountNextIndex(alice.address)).toNumber()).toBe(1);
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
