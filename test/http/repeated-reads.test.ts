// Within one build or pre-flight query, a runtime call or storage read asked again with the same
// parameters is answered from its first answer (src/sdk/patches/query-memo.ts,
// askEachReadOncePerQuery); the next request asks the chains again.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { FAMILIES, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import { networkOf, selector } from '../support/route-matrix';
import type { TestChain } from '../support/test-chain';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

const local = testApp();
const { chains, overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot', 'Hydration'], local.services);

/** Each distinct argument bytes of runtime call `name` and how often the chain was asked them; the call is refused, as the test chains refuse dry runs. */
function countRefused(chain: TestChain, name: string): Map<string, number> {
  const asked = new Map<string, number>();
  chain.setRuntimeCall(name, (args) => {
    const key = Buffer.from(args).toString('hex');
    asked.set(key, (asked.get(key) ?? 0) + 1);
    throw new Error(`test-chain cannot execute runtime call ${name}`);
  });
  return asked;
}

/** query_info answered as the test chains do, counted by argument bytes. */
function countQueryInfo(chain: TestChain): Map<string, number> {
  const asked = new Map<string, number>();
  chain.setRuntimeCall('TransactionPaymentApi_query_info', (args) => {
    const key = Buffer.from(args).toString('hex');
    asked.set(key, (asked.get(key) ?? 0) + 1);
    return { weight: { refTime: 200_000_000n, proofSize: 4_000n }, class: 'Normal', partialFee: 1_000_000n };
  });
  return asked;
}

describe.each(FAMILIES)('/%s each read once per request', (family) => {
  const [to, from] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
  const options = () => ({ development: true, apiOverrides: overrides, abstractDecimals: false });
  let dryRuns: Map<string, number>;
  let queryInfo: Map<string, number>;

  beforeEach(() => {
    dryRuns = countRefused(chains.Hydration, 'DryRunApi_dry_run_call');
    queryInfo = countQueryInfo(chains.Hydration);
  });

  // DOT from Hydration to the relay: the SDK prices the transfer by dry runs (refused here, then payment info).
  const transfer = () =>
    request(local.app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Hydration', to: 'Polkadot', currency: { location: selector('DOT', networkOf('Hydration')), amount: '10000000000' }, [to]: ADDRESS, [from]: SENDER, options: options() })
      .expect(200);

  /** The second request of a route shape tries to learn a template (three builds, two with other accounts and amounts); from then on the shape is built by the SDK. */
  const settled = async () => {
    const first = await transfer();
    await transfer();
    dryRuns.clear();
    queryInfo.clear();
    return first;
  };

  it('a transfer priced by dry runs asks each dry run, payment info and account read once, and builds the same call', async () => {
    const first = await settled();
    dryRuns.clear();
    queryInfo.clear();
    const reads = chains.Polkadot.asked('state_queryStorageAt');
    const second = await transfer();
    // Without the memo the SDK asked each of its two dry runs twice, payment info four times and the recipient's account four times.
    expect([...dryRuns.values()]).toEqual([1, 1]);
    expect([...queryInfo.values()]).toEqual([1]);
    expect(chains.Polkadot.asked('state_queryStorageAt') - reads).toBe(1);
    expect(second.body).toEqual(first.body);
  });

  it('the next request asks the chains again', async () => {
    await settled();
    await transfer();
    await transfer();
    expect([...dryRuns.values()]).toEqual([2, 2]);
    expect([...queryInfo.values()]).toEqual([2]);
  });

  it("xcm-fee reads the recipient's account on the destination once (for its balance and the reverse transfer's nonce)", async () => {
    const fee = () =>
      request(local.app)
        .post(`/${family}/xcm-fee`)
        .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, [to]: ADDRESS, [from]: SENDER, options: options() })
        .expect(200);
    const first = await fee();
    const reads = chains.AssetHubPolkadot.asked('state_queryStorageAt');
    const second = await fee();
    expect(chains.AssetHubPolkadot.asked('state_queryStorageAt') - reads).toBe(1);
    expect(second.body).toEqual(first.body);
  });
});
