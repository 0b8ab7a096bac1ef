// The sandbox as a wallet's CI uses it (issue 35): state that moves, calls that dispatch, XCM that
// executes, and pre-flight answers equal to what then happens. The chains run in-process
// (src/sandbox/network.ts), the service over them (test/helpers/app.ts); transactions are signed
// with polkadot.js's keyring dev accounts and followed with POST /x-transfer/status.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import type { SandboxChainName } from '../../src/sandbox/chain-node';
import { account, dev, finalStatus as followed, send, submit } from '../support/sandbox-client';
import { sandboxService } from '../support/sandbox-service';

const DOT = 10_000_000_000n;
const CHAINS: SandboxChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Kusama', 'AssetHubKusama', 'BridgeHubPolkadot'];

const served = sandboxService({ chains: CHAINS, blockMs: 250 });

const api = (chain: SandboxChainName): Promise<ApiPromise> => served.clients.api(chain);

const options = () => ({ development: true, apiOverrides: served.sandbox.endpoints });
const post = (path: string, body: Record<string, unknown>) => request(served.app).post(`/v5${path}`).send({ ...body, options: options() });

const freeOf = async (chain: SandboxChainName, address: string): Promise<bigint> =>
  ((await (await api(chain)).query.system.account(address)) as unknown as { data: { free: { toBigInt(): bigint } } }).data.free.toBigInt();

const finalStatus = (from: string, to: string, txHash: string) => followed(served.url, { from, to, txHash, options: options() });

describe('the sandbox: state that moves', () => {
  it('takes two transactions in a row from one account; the runtime API and the RPC agree on the nonce', async () => {
    const relay = await api('Polkadot');
    const alice = dev('Alice');
    const before = (await relay.rpc.system.accountNextIndex(alice.address)).toNumber();
    expect((await relay.call.accountNonceApi.accountNonce(alice.address)).toString()).toBe(String(before));
    const first = await send(relay, relay.tx.balances.transferKeepAlive(dev('Bob').address, DOT), alice);
    await first.ready;
    // The second is signed while the first waits in the pool: the nonce counts it.
    const second = await send(relay, relay.tx.balances.transferKeepAlive(dev('Charlie').address, DOT), alice);
    const [a, b] = await Promise.all([first.included, second.included]);
    expect(a.events).toContain('system.ExtrinsicSuccess');
    expect(b.events).toContain('system.ExtrinsicSuccess');
    const rpc = (await relay.rpc.system.accountNextIndex(alice.address)).toNumber();
    expect(rpc).toBe(before + 2);
    expect((await relay.call.accountNonceApi.accountNonce(alice.address)).toString()).toBe(String(rpc));
    expect(((await relay.query.system.account(alice.address)) as unknown as { nonce: { toNumber(): number } }).nonce.toNumber()).toBe(rpc);
  }, 60_000);

  it('debits the amount and exactly the fee paymentInfo quoted; the recipient gets the amount', async () => {
    const relay = await api('Polkadot');
    const [bob, charlie] = [dev('Bob'), dev('Charlie')];
    const tx = relay.tx.balances.transferKeepAlive(charlie.address, 3n * DOT);
    const fee = (await tx.paymentInfo(bob)).partialFee.toBigInt();
    const [bobBefore, charlieBefore] = [await freeOf('Polkadot', bob.address), await freeOf('Polkadot', charlie.address)];
    const included = await submit(relay, tx, bob);
    expect(included.events).toEqual(['balances.Withdraw', 'balances.Transfer', 'transactionPayment.TransactionFeePaid', 'system.ExtrinsicSuccess']);
    expect(await freeOf('Polkadot', bob.address)).toBe(bobBefore - 3n * DOT - fee);
    expect(await freeOf('Polkadot', charlie.address)).toBe(charlieBefore + 3n * DOT);
    // Each block keeps its state: before the transfer's block, Bob still held it all.
    const parent = (await relay.rpc.chain.getHeader(included.blockHash)).parentHash.toHex();
    const freeAt = async (hash: string) => ((await relay.query.system.account.at(hash, bob.address)) as unknown as { data: { free: { toBigInt(): bigint } } }).data.free.toBigInt();
    expect(await freeAt(parent)).toBe(bobBefore);
    expect(await freeAt(included.blockHash)).toBe(bobBefore - 3n * DOT - fee);
  }, 60_000);

  it('dispatches every call of a batchAll (a transfer and a teleport, delivered); a failing call reverts them all', async () => {
    const relay = await api('Polkadot');
    const dave = dev('Dave');
    const teleport = relay.tx.xcmPallet.limitedTeleportAssets(
      { V5: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } },
      { V5: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: dave.publicKey } }] } } },
      { V5: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: 2n * DOT } }] },
      0,
      'Unlimited',
    );
    const batch = relay.tx.utility.batchAll([relay.tx.balances.transferKeepAlive(dev('Eve').address, DOT), teleport]);
    const included = await submit(relay, batch, dave);
    expect(included.events).toContain('utility.BatchCompleted');
    expect(included.events).toContain('xcmPallet.Sent');
    const status = await finalStatus('Polkadot', 'AssetHubPolkadot', included.hash);
    expect(status).toMatchObject({ status: 'delivered' });

    const daveBefore = await freeOf('Polkadot', dave.address);
    const tooMuch = relay.tx.utility.batchAll([relay.tx.balances.transferKeepAlive(dev('Eve').address, DOT), relay.tx.balances.transferKeepAlive(dev('Eve').address, 10n ** 20n)]);
    const fee = (await tooMuch.paymentInfo(dave)).partialFee.toBigInt();
    const failed = await submit(relay, tooMuch, dave);
    expect(failed.error).toBe('balances.InsufficientBalance');
    // Only the fee was paid: the first transfer was reverted with the second.
    expect(await freeOf('Polkadot', dave.address)).toBe(daveBefore - fee);
  }, 60_000);

  it('dispatches utility.batch until a call fails, and forceBatch past it', async () => {
    const relay = await api('Polkadot');
    const [charlie, dave] = [dev('Charlie'), dev('Dave')];
    const calls = () => [relay.tx.balances.transferKeepAlive(dave.address, DOT), relay.tx.balances.transferKeepAlive(dave.address, 10n ** 20n), relay.tx.balances.transferKeepAlive(dave.address, DOT)];
    let before = await freeOf('Polkadot', dave.address);
    const batch = await submit(relay, relay.tx.utility.batch(calls()), charlie);
    expect(batch.events).toEqual(expect.arrayContaining(['utility.ItemCompleted', 'utility.BatchInterrupted', 'system.ExtrinsicSuccess']));
    expect(await freeOf('Polkadot', dave.address)).toBe(before + DOT);
    before = await freeOf('Polkadot', dave.address);
    const force = await submit(relay, relay.tx.utility.forceBatch(calls()), charlie);
    expect(force.events).toEqual(expect.arrayContaining(['utility.ItemFailed', 'utility.BatchCompletedWithErrors', 'system.ExtrinsicSuccess']));
    expect(await freeOf('Polkadot', dave.address)).toBe(before + 2n * DOT);
  }, 60_000);

  it('fails a call it does not emulate at inclusion, naming it (never a silent success)', async () => {
    const relay = await api('Polkadot');
    const included = await submit(relay, relay.tx.staking.chill(), dev('Ferdie'));
    expect(included.events).toContain('system.ExtrinsicFailed');
    expect(included.error).toBe('system.CallFiltered');
  }, 60_000);

  it('traps what a program deposits to a child of Asset Hub (Unroutable), and its status says so', async () => {
    const relay = await api('Polkadot');
    const alice = dev('Alice');
    const ah = { V5: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } };
    const dot = { V5: { parents: 1, interior: 'Here' } };
    const badProgram = {
      V5: [
        { BuyExecution: { fees: { id: { parents: 1, interior: 'Here' }, fun: { Fungible: DOT / 10n } }, weightLimit: 'Unlimited' } },
        {
          DepositReserveAsset: {
            assets: { Wild: { AllCounted: 1 } },
            dest: { parents: 0, interior: { X1: [{ Parachain: 2034 }] } },
            xcm: [{ DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: alice.publicKey } }] } } } }],
          },
        },
      ],
    };
    const tx = relay.tx.xcmPallet.transferAssetsUsingTypeAndThen(ah, { V5: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: DOT } }] }, 'Teleport', dot, 'Teleport', badProgram, 'Unlimited');
    const included = await submit(relay, tx, alice);
    expect(included.events).toContain('xcmPallet.Sent');
    const status = await finalStatus('Polkadot', 'AssetHubPolkadot', included.hash);
    expect(status['status']).toBe('trapped');
    expect(JSON.stringify(status)).toMatch(/AssetsTrapped/i);
  }, 60_000);
});

/** The transfers a wallet's CI sends, each signed, submitted, followed to `delivered`, balances checked against pre-flight. */
type Reader = (chain: ApiPromise, who: string) => Promise<bigint>;
const native: Reader = async (a, who) => freeIn(a, who);
const NATIVE_DOT = { symbol: { type: 'Native', value: 'DOT' } };
const TRANSFERS: { name: string; from: SandboxChainName; to: SandboxChainName; currency: Record<string, unknown>; amount: bigint; sent: Reader; received: Reader }[] = [
  { name: 'DOT Polkadot -> AssetHubPolkadot (teleport)', from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT' }, amount: 2n * DOT, sent: native, received: native },
  { name: 'KSM Kusama -> AssetHubKusama (teleport)', from: 'Kusama', to: 'AssetHubKusama', currency: { symbol: 'KSM' }, amount: 10n ** 12n, sent: native, received: native },
  { name: 'DOT AssetHubPolkadot -> Polkadot (teleport)', from: 'AssetHubPolkadot', to: 'Polkadot', currency: NATIVE_DOT, amount: 2n * DOT, sent: native, received: native },
  {
    name: 'USDt AssetHubPolkadot -> Hydration (reserve)',
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { id: '1984' },
    amount: 5_000_000n,
    sent: async (a, who) => ((await a.query.assets.account(1984, who)) as unknown as { unwrapOrDefault(): { balance: { toBigInt(): bigint } } }).unwrapOrDefault().balance.toBigInt(),
    received: async (a, who) => ((await a.query.tokens.accounts(who, 10)) as unknown as { free: { toBigInt(): bigint } }).free.toBigInt(),
  },
  {
    name: 'USDt Hydration -> AssetHubPolkadot (back to its reserve)',
    from: 'Hydration',
    to: 'AssetHubPolkadot',
    currency: { id: '10' },
    amount: 5_000_000n,
    sent: async (a, who) => ((await a.query.tokens.accounts(who, 10)) as unknown as { free: { toBigInt(): bigint } }).free.toBigInt(),
    received: async (a, who) => ((await a.query.assets.account(1984, who)) as unknown as { unwrapOrDefault(): { balance: { toBigInt(): bigint } } }).unwrapOrDefault().balance.toBigInt(),
  },
  {
    name: 'DOT Hydration -> AssetHubPolkadot (back to its reserve)',
    from: 'Hydration',
    to: 'AssetHubPolkadot',
    currency: { id: '5' },
    amount: 2n * DOT,
    sent: async (a, who) => ((await a.query.tokens.accounts(who, 5)) as unknown as { free: { toBigInt(): bigint } }).free.toBigInt(),
    received: native,
  },
];

async function freeIn(a: ApiPromise, who: string): Promise<bigint> {
  return ((await a.query.system.account(who)) as unknown as { data: { free: { toBigInt(): bigint } } }).data.free.toBigInt();
}

describe('the sandbox: transfers move balances as pre-flight said', () => {
  it.each(TRANSFERS.map((t) => [t.name, t] as const))('%s', async (_name, t) => {
    const sender = dev('Eve');
    const recipient = dev('Ferdie');
    const body = { from: t.from, to: t.to, currency: { ...t.currency, amount: String(t.amount) }, address: recipient.address, senderAddress: sender.address };
    const [fee, dryRun] = await Promise.all([post('/xcm-fee', body), post('/dry-run', body)]);
    expect(fee.status, JSON.stringify(fee.body)).toBe(200);
    expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);
    const quoted = fee.body as { origin: { fee: string }; destination: { fee: string } };
    const dry = dryRun.body as { success: boolean; origin: { fee: string }; destination: { fee: string } };
    expect(dry.success, JSON.stringify(dry)).toBe(true);
    // The two pre-flight answers agree.
    expect(dry.origin.fee).toBe(quoted.origin.fee);
    expect(dry.destination.fee).toBe(quoted.destination.fee);

    const built = await post('/x-transfer', body);
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const [origin, destination] = [await api(t.from), await api(t.to)];
    const amount = t.amount;
    const senderBefore = await t.sent(origin, sender.address);
    const recipientBefore = await t.received(destination, recipient.address);
    const nativeBefore = await freeIn(origin, sender.address);
    const included = await submit(origin, origin.tx(origin.createType('Call', built.body as string)), sender);
    expect(included.events).toContain('system.ExtrinsicSuccess');
    expect(await finalStatus(t.from, t.to, included.hash)).toMatchObject({ status: 'delivered' });

    const received = (await t.received(destination, recipient.address)) - recipientBefore;
    expect(received).toBe(amount - BigInt(quoted.destination.fee));
    // The sender pays the amount and the origin fee, both in the native asset when the asset is native.
    if (t.sent === native) expect(senderBefore - (await t.sent(origin, sender.address))).toBe(amount + BigInt(quoted.origin.fee));
    else {
      expect(senderBefore - (await t.sent(origin, sender.address))).toBe(amount);
      expect(nativeBefore - (await freeIn(origin, sender.address))).toBe(BigInt(quoted.origin.fee));
    }
  }, 90_000);
});

describe('the sandbox: soak', () => {
  it('includes 200 transfers from the 6 development accounts, every nonce in order, none stuck', async () => {
    const relay = await api('Polkadot');
    const senders = ['Alice', 'Bob', 'Charlie', 'Dave', 'Eve', 'Ferdie'].map(dev);
    const recipient = account('//soak-recipient');
    const nonces = await Promise.all(senders.map(async (s) => (await relay.rpc.system.accountNextIndex(s.address)).toNumber()));
    const before = await freeOf('Polkadot', recipient.address);
    // Signed up front with consecutive nonces, as a wallet's CI fires them, then submitted together.
    const signed = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const who = i % senders.length;
        return relay.tx.balances.transferKeepAlive(recipient.address, DOT).signAsync(senders[who]!, { nonce: nonces[who]! + Math.floor(i / senders.length) });
      }),
    );
    const watched = signed.map(
      (tx) =>
        new Promise<string[]>((resolve, reject) => {
          tx.send((result) => {
            // Under load polkadot.js may report a block only once final (it drops InBlock for Finalized).
            if (result.status.isInBlock || result.status.isFinalized) resolve(result.events.map((e) => `${e.event.section}.${e.event.method}`));
          }).catch(reject);
        }),
    );
    const events = await Promise.all(watched);
    expect(events.filter((e) => e.includes('system.ExtrinsicSuccess'))).toHaveLength(200);
    for (const [i, s] of senders.entries()) {
      const sent = Math.ceil((200 - i) / senders.length);
      expect((await relay.rpc.system.accountNextIndex(s.address)).toNumber()).toBe(nonces[i]! + sent);
    }
    expect(await freeOf('Polkadot', recipient.address)).toBe(before + 200n * DOT);
  }, 120_000);
});
