// Live Moonbeam -> Ethereum (`npm run test:live`): POST /evm-x-transfer reads the real BridgeHub,
// asset hub and Moonbeam, and the message it builds for the asset hub is the one the registry's
// own builder (POST /x-transfer) builds for the same transfer at the same state. Endpoints come
// from LIVE_WS_<CHAIN> or the registry's public ones; skipped with one line when one of the three
// does not answer. A halted bridge is a 503, which the test accepts and reports.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFunctionData, parseAbi, parseTransaction, type Hex } from 'viem';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { testApp } from '../helpers/app';
import { PROBE_MS, probeChains } from './support';

const CHAINS = ['Moonbeam', 'AssetHubPolkadot', 'BridgeHubPolkadot'] as const;
const XCM_PRECOMPILE_ABI = parseAbi([
  'function transferAssetsUsingTypeAndThenAddress((uint8 parents, bytes[] interior) dest, (address asset, uint256 amount)[] assets, uint8 assetsTransferType, uint8 remoteFeesIdIndex, uint8 feesTransferType, bytes customXcmOnDest)',
]);
// A fresh account (nonce 0 on Moonbeam), so the nonce both builds read cannot move in between.
const SENDER = '0x000000000000000000000000000000000000dEaD';
const RECIPIENT = '0x24d18dbfbced732eadf98ee520853e13909fe258';
const AH_ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

let endpoints: Partial<Record<(typeof CHAINS)[number], string>> = {};
let moonbeam: ApiPromise | undefined;
beforeAll(async () => {
  endpoints = await probeChains(CHAINS);
  if (CHAINS.some((c) => endpoints[c] === undefined)) {
    console.log(`live Moonbeam -> Ethereum suite skipped: not every one of ${CHAINS.join(', ')} answered within ${PROBE_MS} ms (set LIVE_WS_<CHAIN>)`);
    return;
  }
  moonbeam = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(endpoints.Moonbeam), noInitWarn: true });
}, 60_000);

const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '170000' });
afterAll(async () => {
  await services.close();
  await moonbeam?.disconnect();
});

describe('/v2/evm-x-transfer Moonbeam -> Ethereum (live chains)', () => {
  it('WETH: the precompile call carries the message the registry\'s builder sends for the same transfer', async ({ skip }) => {
    if (!moonbeam) skip();
    const api = moonbeam!;
    const transfer = { from: 'Moonbeam', to: 'Ethereum', sender: SENDER, recipient: RECIPIENT, ahAddress: AH_ADDRESS, options: { apiOverrides: endpoints } };
    const ours = await request(app).post('/v2/evm-x-transfer').send({ ...transfer, currency: { symbol: 'WETH', amount: '0.01' } });
    if (ours.status === 503 && ours.body.kind === 'FeatureTemporarilyDisabledError') {
      console.log(`live Moonbeam -> Ethereum: the bridge is halted (${ours.body.message})`);
      return;
    }
    expect(ours.status, JSON.stringify(ours.body)).toBe(200);
    const tx = parseTransaction(ours.body as Hex);
    expect(tx.chainId).toBe(1284);
    const [, assets, , , , customXcm] = decodeFunctionData({ abi: XCM_PRECOMPILE_ABI, data: tx.data! }).args;
    expect(assets[1]!.amount).toBe(10n ** 16n);
    expect(assets[0]!.amount > 0n).toBe(true);

    const sdkBuilt = await request(app).post('/v2/x-transfer').send({ ...transfer, currency: { symbol: 'WETH.e', amount: '0.01' } });
    expect(sdkBuilt.status, JSON.stringify(sdkBuilt.body)).toBe(200);
    const call = api.createType('Call', sdkBuilt.body as string);
    const sdkXcm = (call.toJSON() as { args: { custom_xcm_on_dest: { v5: unknown[] } } }).args.custom_xcm_on_dest.v5;
    expect((api.createType('XcmVersionedXcm', customXcm).toJSON() as { v4: unknown[] }).v4).toEqual(sdkXcm);
  });
});
