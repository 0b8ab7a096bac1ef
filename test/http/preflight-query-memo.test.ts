// One pre-flight query prices each transaction once (src/sdk/patches/query-memo.ts): the SDK's
// second, forced run asks the chains nothing its first run asked already, and nothing is kept
// from one request to the next.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { FAMILIES, teleportFeeBody, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import type { TestChain } from '../support/test-chain';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

const local = testApp();
// No dry-run answers: both chains price with payment info (TransactionPaymentApi_query_info).
const { chains, overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot'], local.services, {});

/** Answers query_info with `partialFee()` and counts the asks. */
function countQueryInfo(chain: TestChain, partialFee: () => bigint): { asked: number } {
  const counter = { asked: 0 };
  chain.setRuntimeCall('TransactionPaymentApi_query_info', () => {
    counter.asked++;
    return { weight: { refTime: 200_000_000n, proofSize: 4_000n }, class: 'Normal', partialFee: partialFee() };
  });
  return counter;
}

describe.each(FAMILIES)('/%s xcm-fee asks each payment info once per request', (family) => {
  let relayFee: bigint;
  let relay: { asked: number };
  let assetHub: { asked: number };

  beforeEach(() => {
    relayFee = 1_000_000n;
    relay = countQueryInfo(chains.Polkadot, () => relayFee);
    assetHub = countQueryInfo(chains.AssetHubPolkadot, () => 2_000_000n);
  });

  const fee = () =>
    request(local.app)
      .post(`/${family}/xcm-fee`)
      .send(teleportFeeBody(family, overrides, ADDRESS, SENDER))
      .expect(200);

  it("the teleport's fee on the origin and the reverse transfer's on the destination are each asked once, and the answer is theirs", async () => {
    const res = await fee();
    expect(res.body).toMatchObject({ origin: { feeType: 'paymentInfo' }, destination: { feeType: 'paymentInfo' } });
    // The SDK prices twice (as the sender, then forced with a root origin); the chains are asked once.
    expect(relay.asked).toBe(1);
    expect(assetHub.asked).toBe(1);
  });

  it('a second request asks the chains again and answers what they answer now', async () => {
    const first = await fee();
    relayFee = 5_000_000n;
    const second = await fee();
    expect(relay.asked).toBe(2);
    expect(assetHub.asked).toBe(2);
    expect(BigInt(second.body.origin.fee)).toBeGreaterThan(BigInt(first.body.origin.fee));
    expect(second.body.destination).toEqual(first.body.destination);
  });
});
