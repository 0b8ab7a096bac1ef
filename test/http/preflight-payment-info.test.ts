// Payment info asks the chains no block headers (src/sdk/patches/payment-info-era.ts): the fake
// signature's era is a mortal one born at genesis, and the extrinsic priced is as long as the one
// polkadot.js signs with a recent block, so TransactionPaymentApi answers the same fee.
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
});
