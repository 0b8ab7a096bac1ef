// Pre-flight with a `feeAsset`: the origin's XCM fee paid in USDt on Asset Hub, priced by the
// chain's XcmPaymentApi (the dry run's local XCM weighed, the weight priced in USDt), through the
// real SDK over local test chains. sdk-pjs 11.14.8 never reached that pricing on its own (it looks
// for the local XCM under a key polkadot.js does not produce) and answered the DOT payment-info
// figure labelled USDt (also inside the execute XCM x-transfer builds);
// src/sdk/patches/xcm-payment-pricing.ts makes the local XCM visible to it. Hydration with feeAsset
// DOT had the same fault (its HDX payment info as DOT); the same condition decides the DOT pricing
// of Asset Hub -> Ethereum.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { FAMILIES, accountFields, expectErrorBody, testApp } from '../helpers/app';
import { USDT_AH } from '../fixtures/sdk-results';
import { sdk } from '../../src/sdk';
import { chainsForFile } from '../support/chains-for-file';
import {
  answerAssetFees,
  answerDryRunCall,
  answerDryRunXcm,
  answerPoolQuote,
  answerQueryInfo,
  answerXcmPayment,
  callFailure,
  callSuccess,
  parachain,
  reserveMessage,
  xcmComplete,
} from '../support/runtime-answers';
import { seedAsset, seedNative, seedTokens } from '../support/seed';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

const USDT = 1_000_000n; // 1 USDt (6 decimals)
const amountOf = (family: string, usdt: bigint) => (family === 'v5' ? (usdt * USDT).toString() : usdt.toString());
const SENDER_USDT = 100n * USDT;
const USDT_ED = BigInt(USDT_AH.existentialDeposit ?? '0');
const HYDRATION_FEE = 20_000n; // XcmPaymentApi on Hydration, in USDT
/** The weight Asset Hub's XcmPaymentApi gives the local XCM, and what that weight costs in USDt. */
const LOCAL_WEIGHT = { refTime: 2_500_000_000n, proofSize: 60_000n };
const USDT_EXECUTION_FEE = 41_000n; // 0.041 USDt
/** Delivering the forwarded XCM to Hydration costs this in DOT (answered in XCM V5), which Asset Hub's pools quote in USDt. */
const DELIVERY_DOT = 2_000_000n;
const usdtForDot = (planck: bigint) => (planck * 7n) / 10_000n; // 1 DOT = 7 USDt
const DELIVERY_USDT = usdtForDot(DELIVERY_DOT);
/** The origin fee in USDt: execution of the local XCM plus delivery. */
const ORIGIN_FEE_USDT = USDT_EXECUTION_FEE + DELIVERY_USDT;
/** Payment info on Asset Hub (query_info) plus the delivery fee paid (FeesPaid), in DOT planck: what the SDK fell back to. */
const DOT_FALLBACK = 15_000_000n + DELIVERY_DOT;

/** USDt's location on Asset Hub itself, and as Hydration sees it (Asset Hub is its reserve). */
const USDT_HERE = { parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 1984 }] } };
const USDT_FROM_AH = { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } };
/** The same location as polkadot.js gives it back in JSON (what the chain decodes from the call). */
const USDT_HERE_JSON = { parents: 0, interior: { x2: [{ palletInstance: 50 }, { generalIndex: 1984 }] } };

/** What pallet-xcm executes on Asset Hub for a local-reserve transfer of `amount` USDt to Hydration. */
const localReserveTransfer = (amount: bigint) => [
  { WithdrawAsset: [{ id: USDT_HERE, fun: { Fungible: amount } }] },
  { SetFeesMode: { jitWithdraw: true } },
  {
    DepositReserveAsset: {
      assets: { Wild: { AllCounted: 1 } },
      dest: parachain(2034),
      xcm: [{ BuyExecution: { fees: { id: USDT_FROM_AH, fun: { Fungible: amount } }, weightLimit: 'Unlimited' } }],
    },
  },
];

describe.each(FAMILIES)('/%s pre-flight with feeAsset USDt from AssetHubPolkadot to Hydration', (family) => {
  const local = testApp();
  const { chains } = chainsForFile(['AssetHubPolkadot', 'Hydration'], local.services, {});
  /** The programs Asset Hub's XcmPaymentApi was asked to weigh. */
  let weighed: unknown[];
  /** The calls Asset Hub was asked to dry-run. */
  let dryRunCalls: unknown[];
  /** The local XCM Asset Hub's dry run reports (null: none recorded). */
  let localXcm: unknown[] | null;
  /** Asset Hub's XcmPaymentApi takes USDt for fees (false: it refuses it, AssetNotFound). */
  let acceptsUsdt: boolean;

  beforeEach(() => {
    weighed = [];
    dryRunCalls = [];
    localXcm = localReserveTransfer(10n * USDT);
    acceptsUsdt = true;
    seedNative(chains.AssetHubPolkadot, SENDER, 5n * 10n ** 10n);
    seedAsset(chains.AssetHubPolkadot, 1984, SENDER, SENDER_USDT);
    seedTokens(chains.Hydration, ADDRESS, 10, 5n * USDT);
    answerQueryInfo(chains.AssetHubPolkadot, 15_000_000n);
    answerQueryInfo(chains.Hydration, 15_000_000n);
    answerXcmPayment(chains.AssetHubPolkadot, { fee: 0n, deliveryFee: DELIVERY_DOT });
    answerPoolQuote(chains.AssetHubPolkadot, usdtForDot);
    // Asset Hub prices the weight it gave (and no other) in USDt, asked by USDt's location on Asset
    // Hub; it refuses any other asset id.
    answerAssetFees(chains.AssetHubPolkadot, {
      weight: LOCAL_WEIGHT,
      feeIn: (assetId, weight) => {
        const isLocalWeight = JSON.stringify(weight) === JSON.stringify({ refTime: Number(LOCAL_WEIGHT.refTime), proofSize: Number(LOCAL_WEIGHT.proofSize) });
        const isUsdt = JSON.stringify(assetId) === JSON.stringify({ v4: USDT_HERE_JSON });
        return acceptsUsdt && isLocalWeight && isUsdt ? USDT_EXECUTION_FEE : undefined;
      },
      weighed,
    });
    answerXcmPayment(chains.Hydration, { fee: HYDRATION_FEE });
    const ten = 10n * USDT;
    answerDryRunCall(chains.AssetHubPolkadot, (r) =>
      callSuccess(r, {
        sender: SENDER,
        amount: ten,
        deliveryFee: DELIVERY_DOT,
        localXcm: localXcm ?? undefined,
        forwarded: { destination: parachain(2034), message: reserveMessage(r, ten, ADDRESS, USDT_FROM_AH) },
      }),
      dryRunCalls,
    );
    answerDryRunXcm(chains.Hydration, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: ten - HYDRATION_FEE }));
  });

  const body = (usdt: bigint) => ({
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { id: 1984, amount: amountOf(family, usdt) },
    feeAsset: { id: 1984 },
    [accountFields(family).recipient]: ADDRESS,
    [accountFields(family).sender]: SENDER,
    options: { development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url, Hydration: chains.Hydration.url } },
  });
  const p = (endpoint: string, b: unknown) => request(local.app).post(`/${family}/${endpoint}`).send(b as object);

  /** The local XCM as the chain decoded what the SDK asked it to weigh (polkadot.js JSON). */
  const localXcmJson = () => chains.AssetHubPolkadot.registry.createType('XcmVersionedXcm', { V5: localReserveTransfer(10n * USDT) }).toJSON();

  it('xcm-fee, origin-xcm-fee, dry-run and transfer-info: the origin fee is what XcmPaymentApi charges in USDt for the local XCM, plus the delivery fee quoted in USDt', async () => {
    const usdtFee = { fee: ORIGIN_FEE_USDT.toString(), asset: USDT_AH };
    const fee = await p('xcm-fee', body(10n)).expect(200);
    expect(fee.body.origin).toMatchObject({ ...usdtFee, feeType: 'dryRun', sufficient: true });
    expect(fee.body.destination).toMatchObject({ fee: HYDRATION_FEE.toString() });
    // What was weighed for the origin is the dry run's local XCM.
    expect(weighed[0]).toEqual(localXcmJson());

    expect((await p('origin-xcm-fee', body(10n)).expect(200)).body.origin).toMatchObject({ ...usdtFee, feeType: 'dryRun', sufficient: true });

    for (const endpoint of ['dry-run', 'dry-run-preview']) {
      const dryRun = await p(endpoint, body(10n)).expect(200);
      expect(dryRun.body, endpoint).toMatchObject({ success: true, origin: { success: true, ...usdtFee }, destination: { success: true } });
    }

    const info = await p('transfer-info', body(10n)).expect(200);
    expect(info.body.origin.xcmFee).toMatchObject(usdtFee);
  });

  it('the amount rules count the USDt origin fee in USDt (Rules 1 and 3); against DOT it does not count', async () => {
    // Rule 1: max(balance - ED - originFee, 0), originFee paid in the queried asset (feeAsset = USDt).
    expect((await p('transferable-amount', body(10n)).expect(200)).body).toBe((SENDER_USDT - USDT_ED - ORIGIN_FEE_USDT).toString());
    // Rule 3: destination fee (USDT on Hydration) + origin fee (USDt) + 1; no hops; the recipient holds USDT, no ED.
    expect((await p('min-transferable-amount', body(10n)).expect(200)).body).toBe((HYDRATION_FEE + ORIGIN_FEE_USDT + 1n).toString());
    const dotQuery = { ...body(10n), currency: { symbol: { type: 'Native', value: 'DOT' }, amount: family === 'v5' ? '10000000000' : '1' } };
    const dotBalance = 5n * 10n ** 10n;
    const dotEd = BigInt(sdk.findNativeAssetInfoOrThrow('AssetHubPolkadot').existentialDeposit ?? '0');
    expect((await p('transferable-amount', dotQuery).expect(200)).body).toBe((dotBalance - dotEd).toString());
  });

  it('Asset Hub refuses USDt for fees: every query pricing the origin is a 400 UnableToComputeError naming the chain and the asset', async () => {
    acceptsUsdt = false;
    const endpoints = ['xcm-fee', 'origin-xcm-fee', 'dry-run', 'dry-run-preview', 'transfer-info', 'transferable-amount', 'min-transferable-amount', 'receivable-amount', 'verify-ed-on-destination'];
    for (const endpoint of endpoints) {
      const res = await p(endpoint, body(10n)).expect(400);
      expectErrorBody(res.body, 400, 'UnableToComputeError');
      expect(res.body.message, endpoint).toBe('The XCM fee on AssetHubPolkadot cannot be computed: its XcmPaymentApi does not price fees in USDt');
    }
  });

  it('a dry run that records no local XCM cannot be priced in USDt: a 400 naming the chain, not a DOT figure labelled USDt', async () => {
    localXcm = null;
    for (const endpoint of ['xcm-fee', 'origin-xcm-fee', 'dry-run', 'transfer-info', 'transferable-amount']) {
      const res = await p(endpoint, body(10n)).expect(400);
      expectErrorBody(res.body, 400, 'UnableToComputeError');
      expect(res.body.message, endpoint).toBe(
        'The XCM fee on AssetHubPolkadot cannot be computed in USDt: its XcmPaymentApi did not price the dry run, and payment info gives fees in DOT only',
      );
    }
    expect(weighed).toEqual([]);
  });

  it('a failing dry run is not priced by the DOT payment-info fallback either: the dry-run error, 400', async () => {
    answerDryRunCall(chains.AssetHubPolkadot, (r) => callFailure(r, { xcmError: 'FailedToTransactAsset', instruction: 0 }));
    for (const endpoint of ['origin-xcm-fee', 'transferable-amount']) {
      const res = await p(endpoint, body(10n)).expect(400);
      expectErrorBody(res.body, 400, 'DryRunFailedError');
      expect(res.body.message, endpoint).toBe('Dry run failed: LocalExecutionIncompleteWithError');
    }
  });

  it('x-transfer: the execute XCM Asset Hub builds keeps back the USDt fee XcmPaymentApi charges (padded 40%), not a DOT figure; xcmFormatCheck does not price again', async () => {
    const b = body(10n);
    const res = await p('x-transfer', b).expect(200);
    const call = chains.AssetHubPolkadot.registry.createType('Call', res.body);
    expect(`${call.section}.${call.method}`).toBe('polkadotXcm.execute');
    // The SDK sends on what is left after the origin fee and its minimal reserve fee (1000 base units), each padded by 40%.
    type Instruction = Record<string, { xcm?: Instruction[]; fees?: { fun: { fungible: number } } } | undefined>;
    const message = call.args[0]!.toJSON() as { v4: Instruction[] };
    const deposit = message.v4.find((i) => i['depositReserveAsset'])?.['depositReserveAsset'];
    const onward = deposit?.xcm?.[0]?.['buyExecution']?.fees?.fun.fungible;
    expect(BigInt(onward ?? 0)).toBe(10n * USDT - sdk.padValueBy(ORIGIN_FEE_USDT, 40) - sdk.padValueBy(1000n, 40));
    // Weighed: the dry run's local XCM (the fee estimate), then the built message (execute's max_weight).
    expect(weighed).toHaveLength(2);
    expect(weighed[0]).toEqual(localXcmJson());

    // xcmFormatCheck dry-runs the built call once more, only to see that it passes: that run is not priced.
    weighed.length = 0;
    dryRunCalls.length = 0;
    const checked = await p('x-transfer', { ...b, options: { ...b.options, xcmFormatCheck: true } }).expect(200);
    expect(checked.body).toBe(res.body);
    expect(dryRunCalls).toHaveLength(2);
    expect(weighed).toHaveLength(2);
  });

  it('without feeAsset the origin pays in DOT as before: payment info and the delivery fee, XcmPaymentApi not asked', async () => {
    const { feeAsset: _, ...noFeeAsset } = body(10n);
    const dot = sdk.findNativeAssetInfoOrThrow('AssetHubPolkadot');
    const fee = await p('xcm-fee', noFeeAsset).expect(200);
    expect(fee.body.origin).toMatchObject({ fee: DOT_FALLBACK.toString(), asset: { symbol: dot.symbol, decimals: dot.decimals } });
    expect((await p('transferable-amount', noFeeAsset).expect(200)).body).toBe((SENDER_USDT - USDT_ED).toString());
    expect(weighed).toEqual([]);
  });
});

// Asset Hub -> Ethereum: the SDK prices the origin with XcmPaymentApi in DOT (no feeAsset needed),
// under the same condition, which the same missing key kept from ever holding.
const WETH = { parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' } }] } };
const ETH_RECIPIENT = '0x24D18dbFBcEd732EAdF98EE520853e13909fE258';
const DOT_EXECUTION_FEE = 123_456_789n;
/** Delivering the export to BridgeHubPolkadot (the bridge's fee included), in DOT, answered in XCM V5. */
const BRIDGE_DELIVERY_DOT = 4_000_000_000n;
/** DOT as Asset Hub prices it (polkadot.js JSON of the versioned asset id the SDK sends). */
const DOT_ASSET_ID_JSON = { v4: { parents: 1, interior: { here: null } } };

describe.each(FAMILIES)('/%s pre-flight from AssetHubPolkadot to Ethereum: the origin fee priced by XcmPaymentApi in DOT', (family) => {
  const local = testApp();
  const { chains } = chainsForFile(['AssetHubPolkadot', 'BridgeHubPolkadot'], local.services, {});
  let weighed: unknown[];
  const wethAmount = 10n ** 15n; // 0.001 WETH

  /** What pallet-xcm executes on Asset Hub to send WETH back over the bridge (its reserve is Ethereum). */
  const localXcm = [
    { WithdrawAsset: [{ id: WETH, fun: { Fungible: wethAmount } }] },
    { InitiateReserveWithdraw: { assets: { Wild: { AllCounted: 1 } }, reserve: { parents: 2, interior: { X1: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }] } }, xcm: [] } },
  ];

  /** What Asset Hub forwards to BridgeHubPolkadot to export over the bridge (shape only; BridgeHub is not dry-run here). */
  const toBridgeHub = [
    { WithdrawAsset: [{ id: { parents: 1, interior: 'Here' }, fun: { Fungible: BRIDGE_DELIVERY_DOT } }] },
    { BuyExecution: { fees: { id: { parents: 1, interior: 'Here' }, fun: { Fungible: BRIDGE_DELIVERY_DOT } }, weightLimit: 'Unlimited' } },
    { ExportMessage: { network: { Ethereum: { chainId: 1 } }, destination: 'Here', xcm: [{ ClearOrigin: null }] } },
  ];

  beforeEach(() => {
    weighed = [];
    seedNative(chains.AssetHubPolkadot, SENDER, 5n * 10n ** 10n);
    answerQueryInfo(chains.AssetHubPolkadot, 15_000_000n);
    answerXcmPayment(chains.AssetHubPolkadot, { fee: 0n, deliveryFee: BRIDGE_DELIVERY_DOT });
    answerAssetFees(chains.AssetHubPolkadot, {
      weight: LOCAL_WEIGHT,
      feeIn: (assetId) => (JSON.stringify(assetId) === JSON.stringify(DOT_ASSET_ID_JSON) ? DOT_EXECUTION_FEE : undefined),
      weighed,
    });
    answerDryRunCall(chains.AssetHubPolkadot, (r) =>
      callSuccess(r, { sender: SENDER, amount: wethAmount, deliveryFee: BRIDGE_DELIVERY_DOT, localXcm, forwarded: { destination: parachain(1002), message: toBridgeHub } }),
    );
  });

  const body = () => ({
    from: 'AssetHubPolkadot',
    to: 'Ethereum',
    currency: { location: WETH, amount: family === 'v5' ? wethAmount.toString() : '0.001' },
    [accountFields(family).recipient]: ETH_RECIPIENT,
    [accountFields(family).sender]: SENDER,
    options: { development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url, BridgeHubPolkadot: chains.BridgeHubPolkadot.url } },
  });
  const p = (endpoint: string) => request(local.app).post(`/${family}/${endpoint}`).send(body());

  it('origin-xcm-fee: the DOT price of the local XCM plus the delivery to BridgeHub, not payment info', async () => {
    const dot = sdk.findNativeAssetInfoOrThrow('AssetHubPolkadot');
    const res = await p('origin-xcm-fee').expect(200);
    expect(res.body.origin).toMatchObject({ fee: (DOT_EXECUTION_FEE + BRIDGE_DELIVERY_DOT).toString(), feeType: 'dryRun', asset: { symbol: dot.symbol, decimals: dot.decimals } });
    expect(weighed[0]).toEqual(chains.AssetHubPolkadot.registry.createType('XcmVersionedXcm', { V5: localXcm }).toJSON());
  });
});

// Hydration, the other chain that builds an execute with a feeAsset: DOT (Tokens id 5) to Asset Hub,
// its fee paid in DOT rather than HDX.
describe.each(FAMILIES)('/%s pre-flight with feeAsset DOT from Hydration to AssetHubPolkadot', (family) => {
  const local = testApp();
  const { chains } = chainsForFile(['Hydration', 'AssetHubPolkadot'], local.services, {});
  let weighed: unknown[];
  const DOT = 10n ** 10n;
  const HYDRATION_DOT_FEE = 3_210_000n; // Hydration's XcmPaymentApi price of the local XCM, in DOT planck
  const localXcm = [
    { WithdrawAsset: [{ id: { parents: 1, interior: 'Here' }, fun: { Fungible: DOT } }] },
    { InitiateReserveWithdraw: { assets: { Wild: { AllCounted: 1 } }, reserve: parachain(1000), xcm: [] } },
  ];

  beforeEach(() => {
    weighed = [];
    seedNative(chains.Hydration, SENDER, 10n ** 14n);
    seedTokens(chains.Hydration, SENDER, 5, 20n * DOT);
    answerQueryInfo(chains.Hydration, 1_000_000n);
    answerXcmPayment(chains.Hydration, { fee: 0n });
    answerAssetFees(chains.Hydration, {
      weight: LOCAL_WEIGHT,
      feeIn: (assetId) => (JSON.stringify(assetId) === JSON.stringify({ v4: { parents: 1, interior: { here: null } } }) ? HYDRATION_DOT_FEE : undefined),
      weighed,
    });
    answerDryRunCall(chains.Hydration, (r) =>
      callSuccess(r, { sender: SENDER, amount: DOT, localXcm, forwarded: { destination: parachain(1000), message: reserveMessage(r, DOT, ADDRESS) } }),
    );
    answerQueryInfo(chains.AssetHubPolkadot, 15_000_000n);
    answerXcmPayment(chains.AssetHubPolkadot, { fee: 1_500_000n });
    answerDryRunXcm(chains.AssetHubPolkadot, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: DOT - 1_500_000n }));
  });

  const body = () => ({
    from: 'Hydration',
    to: 'AssetHubPolkadot',
    currency: { id: 5, amount: family === 'v5' ? DOT.toString() : '1' },
    feeAsset: { id: 5 },
    [accountFields(family).recipient]: ADDRESS,
    [accountFields(family).sender]: SENDER,
    options: { development: true, apiOverrides: { Hydration: chains.Hydration.url, AssetHubPolkadot: chains.AssetHubPolkadot.url } },
  });
  const p = (endpoint: string) => request(local.app).post(`/${family}/${endpoint}`).send(body());

  it('origin-xcm-fee is what Hydration charges in DOT for the local XCM; Rule 1 subtracts it from DOT', async () => {
    const dot = sdk.findAssetInfoOrThrow('Hydration', { id: 5 }, null);
    const res = await p('origin-xcm-fee').expect(200);
    expect(res.body.origin).toMatchObject({ fee: HYDRATION_DOT_FEE.toString(), feeType: 'dryRun', asset: { symbol: 'DOT', assetId: '5' } });
    expect(weighed[0]).toEqual(chains.Hydration.registry.createType('XcmVersionedXcm', { V5: localXcm }).toJSON());
    // Rule 1: max(balance - ED - originFee, 0), the fee paid in the queried asset (feeAsset = DOT).
    expect((await p('transferable-amount').expect(200)).body).toBe((20n * DOT - BigInt(dot.existentialDeposit ?? '0') - HYDRATION_DOT_FEE).toString());
  });
});
