// Each client's default path on the sandbox, with no nonce given: polkadot.js 16 and 14
// `signAndSend(account)` (its nonce from System.Account, through a storage subscription) and
// polkadot-api 1 and 2 `signAndSubmit` / `signSubmitAndWatch` (its nonce from
// AccountNonceApi_account_nonce, its validity from TaggedTransactionQueue_validate_transaction),
// five transactions in a row from one account: all included, in order. A transaction the pool
// refuses is reported to the client that sent it, never dropped in silence (transactionWatch_v1 too).
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ApiPromise } from '../../src/sdk';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';
import { until } from '../helpers/transfer-status';
import { dev } from '../support/sandbox-client';
import { devSigner, loadPapi, type Finalized, type PapiTx, type PapiVersion, type WatchEvent } from '../support/papi';

const load = createRequire(__filename);
const libraries = { '@polkadot/api 16': load('@polkadot/api'), '@polkadot/api 14': load('polkadot-api-14') } as Record<string, typeof import('@polkadot/api')>;

const IN_A_ROW = 5;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ chains: ['Polkadot'], blockMs: 250, basePort: 0 });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
});

/** The extrinsics of every block so far, in chain order, by hash; and the nonce each was signed with. */
async function chainOrder(api: ApiPromise): Promise<{ hash: string; nonce: number }[]> {
  const order: { hash: string; nonce: number }[] = [];
  const head = (await api.rpc.chain.getHeader()).number.toNumber();
  for (let n = 1; n <= head; n++) {
    const block = await api.rpc.chain.getBlock(await api.rpc.chain.getBlockHash(n));
    for (const x of block.block.extrinsics) order.push({ hash: x.hash.toHex(), nonce: x.nonce.toNumber() });
  }
  return order;
}

/** A development account's next nonce on Polkadot (what the pool took counted). */
const accountNonceOf = (who: string): number => sandbox.ledgers.Polkadot!.nonce(`0x${Buffer.from(dev(who).publicKey).toString('hex')}`);

/** Waits for the block after the head: it includes what the pool holds now. */
async function nextBlock(): Promise<void> {
  const head = sandbox.nodes.Polkadot!.head();
  await until(() => sandbox.nodes.Polkadot!.head() > head, 'the next block');
}

describe.each(Object.entries(libraries).map(([name, lib], i) => ({ name, lib, who: ['Alice', 'Bob'][i]! })))('$name', ({ lib, who }) => {
  let api: ApiPromise;
  beforeAll(async () => {
    api = await lib.ApiPromise.create({ provider: new lib.WsProvider(sandbox.endpoints.Polkadot!), noInitWarn: true, throwOnConnect: true });
  }, 30_000);
  afterAll(async () => {
    await api?.disconnect();
  });

  it(`signAndSend(account) ${IN_A_ROW} times in a row, no nonce given: the pool takes each, and all are included in order`, async () => {
    const signer = dev(who);
    const hashes: string[] = [];
    for (let i = 0; i < IN_A_ROW; i++) hashes.push((await api.tx.system.remark(`0x0${i}`).signAndSend(signer)).toHex());
    await nextBlock();
    const mine = (await chainOrder(api)).filter((x) => hashes.includes(x.hash));
    expect(mine.map((x) => x.hash)).toEqual(hashes);
    expect(mine.map((x) => x.nonce)).toEqual([0, 1, 2, 3, 4]);
  }, 60_000);

  it('System.Account, subscribed, counts what the pool took at once, and the fee paid at the block', async () => {
    const signer = dev('Charlie');
    const seen: { nonce: number; free: bigint }[] = [];
    type AccountInfo = { nonce: { toNumber(): number }; data: { free: { toBigInt(): bigint } } };
    const subscribe = api.query.system.account as unknown as (who: string, callback: (info: AccountInfo) => void) => Promise<() => void>;
    const unsubscribe = await subscribe(signer.address, (info) => {
      seen.push({ nonce: info.nonce.toNumber(), free: info.data.free.toBigInt() });
    });
    try {
      await until(() => seen.length > 0, 'the first value');
      const before = seen.at(-1)!;
      const next = (await api.rpc.system.accountNextIndex(signer.address)).toNumber();
      expect(next).toBe(before.nonce);
      await api.tx.system.remark('0x01').signAndSend(signer);
      await until(() => seen.some((s) => s.nonce === before.nonce + 1), 'the nonce to move');
      expect((await api.rpc.system.accountNextIndex(signer.address)).toNumber()).toBe(before.nonce + 1);
      expect((await api.call.accountNonceApi.accountNonce(signer.address)).toString()).toBe(String(before.nonce + 1));
      await until(() => seen.some((s) => s.free < before.free), 'the fee to be paid at the block');
    } finally {
      unsubscribe();
    }
  }, 60_000);
});

/** Signs and submits with `signSubmitAndWatch`: `inBestBlock` once a best block holds it, `finalized` once final; both reject on an error. */
function watch(tx: PapiTx, signer: unknown): { inBestBlock: Promise<void>; finalized: Promise<Finalized> } {
  let found!: () => void;
  let failed!: (error: unknown) => void;
  const inBestBlock = new Promise<void>((resolve, reject) => ((found = resolve), (failed = reject)));
  const finalized = new Promise<Finalized>((resolve, reject) => {
    const subscription = tx.signSubmitAndWatch(signer).subscribe({
      next(event: WatchEvent) {
        if (event.type === 'txBestBlocksState' && event.found) found();
        if (event.type !== 'finalized') return;
        subscription.unsubscribe();
        found();
        resolve(event);
      },
      error(error) {
        failed(error);
        reject(error);
      },
    });
  });
  return { inBestBlock, finalized };
}

describe.each([
  { version: 'polkadot-api' as PapiVersion, who: 'Dave' },
  { version: 'polkadot-api-2' as PapiVersion, who: 'Eve' },
])('$version', ({ version, who }) => {
  it(`signAndSubmit ${IN_A_ROW} times in a row, then signSubmitAndWatch ${IN_A_ROW} times in a row (each once the last is in a best block), no nonce given: all included, in order`, async () => {
    const papi = await loadPapi(version);
    const signer = await devSigner(papi, who);
    const client = papi.createClient(papi.getWsProvider(sandbox.endpoints.Polkadot!));
    try {
      const api = client.getUnsafeApi();
      const remark = (i: number) => api.tx.System.remark({ remark: papi.Binary.fromText(`${version} ${i}`) });
      const submitted: Finalized[] = [];
      for (let i = 0; i < IN_A_ROW; i++) submitted.push(await remark(i).signAndSubmit(signer));
      const watched: Promise<Finalized>[] = [];
      for (let i = IN_A_ROW; i < 2 * IN_A_ROW; i++) {
        const { inBestBlock, finalized } = watch(remark(i), signer);
        watched.push(finalized);
        await inBestBlock;
      }
      const all = [...submitted, ...(await Promise.all(watched))];
      expect(all.map((r) => r.ok)).toEqual(all.map(() => true));
      // In order: by block, then by position in it.
      const positions = all.map((r) => r.block.number * 1_000 + r.block.index);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(new Set(all.map((r) => r.txHash)).size).toBe(2 * IN_A_ROW);
    } finally {
      client.destroy();
    }
  }, 90_000);
});

describe('a transaction the pool refuses is reported to its client', () => {
  it('polkadot-api 2: an outdated nonce fails its validity check (Stale) before it is broadcast; a nonce ahead of the account is refused by the pool and reported at the next block (Future)', async () => {
    const papi = await loadPapi('polkadot-api-2');
    const signer = await devSigner(papi, 'Ferdie');
    const client = papi.createClient(papi.getWsProvider(sandbox.endpoints.Polkadot!));
    try {
      const remark = () => client.getUnsafeApi().tx.System.remark({ remark: papi.Binary.fromText('refused') });
      const first = await remark().signAndSubmit(signer);
      expect(first.ok).toBe(true);
      const next = Number(accountNonceOf('Ferdie'));
      await expect(remark().signAndSubmit(signer, { nonce: next - 1 })).rejects.toMatchObject({ name: 'InvalidTxError', error: { type: 'Invalid', value: { type: 'Stale' } } });
      await expect(remark().signAndSubmit(signer, { nonce: next + 2 })).rejects.toMatchObject({ name: 'InvalidTxError', error: { type: 'Invalid', value: { type: 'Future' } } });
      // Nothing was taken: the account's next nonce is where it was.
      expect(accountNonceOf('Ferdie')).toBe(next);
    } finally {
      client.destroy();
    }
  }, 60_000);

  it('transactionWatch_v1 over raw JSON-RPC: one the pool refuses is told invalid, with why; one it takes is followed to finalized', async () => {
    const api = await libraries['@polkadot/api 16']!.ApiPromise.create({ provider: new libraries['@polkadot/api 16']!.WsProvider(sandbox.endpoints.Polkadot!), noInitWarn: true });
    const socket = new WebSocket(sandbox.endpoints.Polkadot!);
    const inbox: { id?: number; result?: unknown; params?: { subscription: string; result: { event: string; block?: { hash: string; index: number } } } }[] = [];
    socket.on('message', (data) => inbox.push(JSON.parse(String(data)) as (typeof inbox)[number]));
    const eventsOf = (subscription: string) => inbox.filter((m) => m.params?.subscription === subscription).map((m) => m.params!.result);
    const submitAndWatch = async (id: number, transaction: string): Promise<string> => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'transactionWatch_v1_submitAndWatch', params: [transaction] }));
      await until(() => inbox.some((m) => m.id === id), 'the answer');
      return String(inbox.find((m) => m.id === id)!.result);
    };
    try {
      await new Promise((resolve) => socket.once('open', resolve));
      const nonce = accountNonceOf('Ferdie');
      const ahead = await api.tx.system!.remark!('0x05').signAsync(dev('Ferdie'), { nonce: nonce + 5 });
      const taken = await api.tx.system!.remark!('0x06').signAsync(dev('Ferdie'), { nonce });
      const refused = await submitAndWatch(1, ahead.toHex());
      await until(() => eventsOf(refused).length > 0, 'the refusal');
      expect(eventsOf(refused)).toEqual([{ event: 'invalid', error: expect.stringMatching(/^Invalid Transaction: Transaction will be valid in the future/) }]);
      const watched = await submitAndWatch(2, taken.toHex());
      await until(() => eventsOf(watched).some((e) => e.event === 'finalized'), 'finalized');
      const events = eventsOf(watched);
      expect(events.map((e) => e.event)).toEqual(['validated', 'broadcasted', 'bestChainBlockIncluded', 'finalized']);
      expect(events[2]!.block).toEqual(events[3]!.block);
      const { hash, index } = events[3]!.block!;
      expect((await api.rpc.chain.getBlock(hash)).block.extrinsics[index]!.hash.toHex()).toBe(taken.hash.toHex());
      expect(accountNonceOf('Ferdie')).toBe(nonce + 1);
    } finally {
      socket.close();
      await api.disconnect();
    }
  });

  it('polkadot.js: signAndSend with a nonce the pool refuses is rejected with the node\'s 1010 answer', async () => {
    const api = await libraries['@polkadot/api 16']!.ApiPromise.create({ provider: new libraries['@polkadot/api 16']!.WsProvider(sandbox.endpoints.Polkadot!), noInitWarn: true });
    try {
      const ferdie = dev('Ferdie');
      await expect(api.tx.system!.remark!('0x02').signAndSend(ferdie, { nonce: accountNonceOf('Ferdie') + 5 })).rejects.toThrow(/1010: Invalid Transaction: Transaction will be valid in the future/);
    } finally {
      await api.disconnect();
    }
  });
});
