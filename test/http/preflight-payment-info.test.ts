// Payment info asks the chains no block headers (src/sdk/patches/payment-info-era.ts): the fake
// signature's era is a mortal one born at genesis, and the extrinsic priced is as long as the one
// polkadot.js signs with a recent block, so TransactionPaymentApi answers the same fee. The
// extrinsic is put together from the call's bytes and a signature kept per account and nonce
// (src/sdk/patches/payment-info-bytes.ts): the same bytes polkadot.js's paymentInfo signs.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { FAMILIES, teleportFeeBody, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import type { TestChain, TestChainName } from '../support/test-chain';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const HEADER_READS = ['chain_getHeader', 'chain_getFinalizedHead', 'chain_getBlockHash'];

const local = testApp();
// No dry-run answers: both chains price with payment info.
const { chains, overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot'], local.services, {});

interface Priced {
  length: number;
  mortal: boolean;
  call: string;
}

/** query_info answers a fee of the extrinsic's length (as a runtime charges per byte) and records what it priced. */
function priceByLength(chain: TestChain): Priced[] {
  const priced: Priced[] = [];
  chain.setRuntimeCall('TransactionPaymentApi_query_info', (args, registry) => {
    const extrinsic = registry.createType('Extrinsic', args);
    const length = Buffer.from(args).readUInt32LE(args.length - 4);
    priced.push({ length, mortal: extrinsic.era.isMortalEra, call: extrinsic.method.toHex() });
    return { weight: { refTime: 200_000_000n, proofSize: 4_000n }, class: 'Normal', partialFee: 1_000n * BigInt(length) };
  });
  return priced;
}

/** Every query_info's arguments (the extrinsic and its length), as hex, in the order asked. */
function recordQueryInfo(chain: TestChain): string[] {
  const asked: string[] = [];
  chain.setRuntimeCall('TransactionPaymentApi_query_info', (args) => {
    asked.push(Buffer.from(args).toString('hex'));
    return { weight: { refTime: 200_000_000n, proofSize: 4_000n }, class: 'Normal', partialFee: 1_000n * BigInt(args.length) };
  });
  return asked;
}

/** Sets `address`'s nonce in `chain`'s state (System.Account; its balance stays zero). */
function setNonce(chain: TestChain, api: ApiPromise, address: string, nonce: number): void {
  const account = api.query.system.account;
  const type = api.registry.createLookupType(account.creator.meta.type.asMap.value);
  chain.setStorage(account.key(address), api.createType(type, { nonce }).toHex());
}

const headerReads = (chain: TestChain): number => HEADER_READS.reduce((sum, method) => sum + chain.asked(method), 0);

describe.each(FAMILIES)('/%s xcm-fee prices payment info without reading block headers', (family) => {
  const names: TestChainName[] = ['Polkadot', 'AssetHubPolkadot'];
  const apis = {} as Record<TestChainName, ApiPromise>;
  beforeAll(async () => {
    for (const name of names) apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
  });
  afterAll(async () => {
    await Promise.all(names.map((name) => apis[name]?.disconnect()));
  });

  const fee = () =>
    request(local.app)
      .post(`/${family}/xcm-fee`)
      .send(teleportFeeBody(family, overrides, ADDRESS, SENDER))
      .expect(200);

  it('no header is asked, and each fee is what polkadot.js signing with a recent block is charged', async () => {
    const priced = { Polkadot: priceByLength(chains.Polkadot), AssetHubPolkadot: priceByLength(chains.AssetHubPolkadot) } as Record<TestChainName, Priced[]>;
    await fee(); // connects
    for (const name of names) priced[name].length = 0;
    const before = names.map((name) => headerReads(chains[name]));
    const res = await fee();
    expect(names.map((name) => headerReads(chains[name]))).toEqual(before);
    expect(res.body).toMatchObject({ origin: { feeType: 'paymentInfo' }, destination: { feeType: 'paymentInfo' } });

    for (const name of names) {
      expect(priced[name]).toHaveLength(1);
      const [service] = priced[name];
      expect(service.mortal).toBe(true);
      // polkadot.js's own payment info for the same call and account: head, finalized head, a recent era.
      const account = name === 'Polkadot' ? SENDER : ADDRESS;
      const asked = headerReads(chains[name]);
      await apis[name].tx(apis[name].createType('Call', service.call)).paymentInfo(account);
      expect(headerReads(chains[name])).toBeGreaterThan(asked);
      expect(priced[name][1]).toEqual(service);
    }
  });

  it('the extrinsic priced is, byte for byte, the one polkadot.js\'s paymentInfo signs, for each nonce', async () => {
    const asked = recordQueryInfo(chains.Polkadot);
    recordQueryInfo(chains.AssetHubPolkadot);
    const api = apis.Polkadot;
    const era = api.createType('ExtrinsicEra', { current: 0, period: 64 });
    const nonceOf = (hex: string) => api.createType('Extrinsic', `0x${hex}`).nonce.toNumber();
    // 1-, 2- and 4-byte compact nonces, then the first again: a signature kept for one nonce is not another's.
    for (const nonce of [5, 300, 70_000, 5]) {
      setNonce(chains.Polkadot, api, SENDER, nonce);
      chains.Polkadot.produceBlock(); // account subscriptions (polkadot.js's signing info reads one) hear of it
      let priced = '';
      for (let tries = 0; priced === '' || nonceOf(priced) !== nonce; tries++) {
        if (tries === 100) throw new Error(`the service never priced nonce ${nonce}`);
        asked.length = 0;
        const res = await fee();
        expect(res.body).toMatchObject({ origin: { feeType: 'paymentInfo' } });
        expect(asked).toHaveLength(1);
        priced = asked[0];
      }
      // The same call through polkadot.js's own paymentInfo, with the era payment-info-era.ts gives it (and the nonce).
      await api.tx(api.createType('Call', api.createType('Extrinsic', `0x${priced}`).method.toHex())).paymentInfo(SENDER, { era, blockHash: api.genesisHash, nonce });
      expect(asked).toHaveLength(2);
      expect(priced).toBe(asked[1]);
    }
  });
});
