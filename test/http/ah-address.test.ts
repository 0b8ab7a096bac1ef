// `ahAddress` in a /x-transfer body reaches the SDK's builder. sdk 11.14.8 consumes it on one
// Substrate path: a transfer to Ethereum from an EVM-origin parachain (Moonbeam's
// `transferToEthereum` -> `createCustomXcmOnDest`), where it is the beneficiary of the
// SetAppendix that returns leftovers on the asset hub. That path reads BridgeHub's bridge status,
// the asset hub's fee storage and Moonbeam's nonce RPC: all served by the test chains.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex } from 'viem';
import { utilCrypto } from '../../src/sdk';
import { expectErrorBody, FAMILIES, testApp } from '../helpers/app';
import { decodeCall, startBlackHole, startTestChain, type TestChain } from '../support/test-chain';

const SENDER = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
const RECIPIENT = '0x24d18dbfbced732eadf98ee520853e13909fe258';
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

let moonbeam: TestChain;
let assetHub: TestChain;
let bridgeHub: TestChain;
const { app, services } = testApp();
beforeAll(async () => {
  [moonbeam, assetHub, bridgeHub] = await Promise.all([startTestChain('Moonbeam'), startTestChain('AssetHubPolkadot'), startTestChain('BridgeHubPolkadot')]);
});
afterAll(async () => {
  await services.close();
  await Promise.all([moonbeam, assetHub, bridgeHub].map((c) => c.close()));
});

interface AppendixCall {
  custom_xcm_on_dest: { v5: [{ setAppendix: [{ depositAsset: { beneficiary: unknown } }] }, ...unknown[]] };
}

describe.each(FAMILIES)('/%s/x-transfer Moonbeam -> Ethereum: ahAddress', (family) => {
  const names = family === 'v5' ? { sender: 'senderAddress', recipient: 'address' } : { sender: 'sender', recipient: 'recipient' };
  const send = (ahAddress?: string) =>
    request(app)
      .post(`/${family}/x-transfer`)
      .send({
        from: 'Moonbeam',
        to: 'Ethereum',
        currency: { symbol: 'WETH.e', amount: '1000000000000000000' },
        [names.sender]: SENDER,
        [names.recipient]: RECIPIENT,
        ...(ahAddress === undefined ? {} : { ahAddress }),
        options: { development: true, abstractDecimals: false, apiOverrides: { Moonbeam: moonbeam.url, AssetHubPolkadot: assetHub.url, BridgeHubPolkadot: bridgeHub.url } },
      });

  /** The beneficiary of the SetAppendix that the asset hub runs: where leftovers go. */
  async function appendixBeneficiary(ahAddress: string) {
    const res = await send(ahAddress);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const call = await decodeCall(moonbeam, res.body as string);
    expect(`${call.section}.${call.method}`).toBe('polkadotXcm.transferAssetsUsingTypeAndThen');
    return { hex: res.body as string, beneficiary: (call.args as unknown as AppendixCall).custom_xcm_on_dest.v5[0].setAppendix[0].depositAsset.beneficiary };
  }

  const account = (ss58: string) => ({ parents: 0, interior: { x1: [{ accountId32: { network: null, id: toHex(utilCrypto.decodeAddress(ss58)) } }] } });

  it('is the asset hub account the leftovers go to, so another ahAddress is other call data', async () => {
    const alice = await appendixBeneficiary(ALICE);
    const bob = await appendixBeneficiary(BOB);
    expect(alice.beneficiary).toEqual(account(ALICE));
    expect(bob.beneficiary).toEqual(account(BOB));
    expect(alice.hex).not.toBe(bob.hex);
  });

  it('without it the route is a 400 naming ahAddress, before any chain is dialled', async () => {
    const hole = await startBlackHole();
    const undialled = { development: true, apiOverrides: { Moonbeam: hole.url, AssetHubPolkadot: hole.url, BridgeHubPolkadot: hole.url } };
    const res = await request(app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Moonbeam', to: 'Ethereum', currency: { symbol: 'WETH.e', amount: '1000000000000000000' }, [names.sender]: SENDER, [names.recipient]: RECIPIENT, options: undialled })
      .expect(400);
    expectErrorBody(res.body, 400, 'MissingParameterError');
    expect(res.body.details[0].path).toBe('body.ahAddress');
    // Pre-flight takes no ahAddress, so it says the same instead of failing inside the SDK.
    const dryRun = await request(app)
      .post(`/${family}/dry-run`)
      .send({ from: 'Moonbeam', to: 'Ethereum', currency: { symbol: 'WETH.e', amount: '1000000000000000000' }, [names.sender]: SENDER, [names.recipient]: RECIPIENT, options: undialled })
      .expect(400);
    expectErrorBody(dryRun.body, 400, 'MissingParameterError');
    expect(hole.connectionsOpened).toBe(0);
    await hole.close();
  });
});
