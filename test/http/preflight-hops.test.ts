// Pre-flight over a hop the SDK cannot dry-run, and the UnableToComputeError answers, through
// the real SDK over local test chains (storage seeded, runtime answers configured per test).
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TChain } from '@paraspell/sdk-pjs';
import { sdk } from '../../src/sdk';
import { FAMILIES, accountFields, expectErrorBody, testApp } from '../helpers/app';
import { DOT_AH, HDX } from '../fixtures/sdk-results';
import { chainsForFile } from '../support/chains-for-file';
import { answerDryRunCall, answerQueryInfo, callFailure, callSuccess, parachain, throughReserveMessage } from '../support/runtime-answers';
import { seedNative, seedTokens } from '../support/seed';
import { startTestChain, type TestChain } from '../support/test-chain';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

/** A registry asset as the contract shows it (the registry's own fields, nothing computed). */
const registryAsset = (chain: TChain, currency: { symbol: string } | 'native') =>
  currency === 'native' ? sdk.findNativeAssetInfoOrThrow(chain) : sdk.findAssetInfoOrThrow(chain, currency, null);

// ---- Hydration -> KiltSpiritnet -> AssetHubPolkadot, KILT ------------------------------------
//
// Hydration sends KILT with xTokens; orml-xtokens sends an asset whose reserve is neither side to
// the reserve first, so the XCM goes to KiltSpiritnet (para 2086), which deposits it on Asset Hub.
// Every chain without the dry-run API is a parachain (the relays, Asset Hubs and Bridge Hubs all
// have it), so a hop without it is a reserve parachain like this one; none of their metadata ships
// offline. The SDK never dry-runs such a hop: it dials it, prices a reverse transfer there with
// TransactionPaymentApi (KiltSpiritnet sends with polkadotXcm.limited_reserve_transfer_assets) and
// reads the recipient's native balance. A test chain serving Hydration's metadata (a parachain
// with the same PolkadotXcm, System and TransactionPaymentApi) stands in for KiltSpiritnet.

const ONE_KILT = 10n ** 15n;
const oneKilt = (family: string) => (family === 'v5' ? ONE_KILT.toString() : '1');
const HYDRATION_PARTIAL_FEE = 1_000_000n; // query_info on Hydration: the origin's fee in HDX
const KILT_PARTIAL_FEE = 3_000_000n; // query_info on KiltSpiritnet, for the reverse transfer
const KILT_HOP_FEE = (KILT_PARTIAL_FEE * 130n) / 100n; // padded +30% by the SDK (padFee, parachain to parachain)
const SENDER_KILT = 5n * ONE_KILT;
const UNSUPPORTED = 'DryRunApi is not available on chain KiltSpiritnet';
const UNREACHED = 'The XCM passes KiltSpiritnet, which has no dry-run support: the destination could not be dry-run';
const KILT_HYDRATION = registryAsset('Hydration', { symbol: 'KILT' });
const KILT_NATIVE = registryAsset('KiltSpiritnet', 'native');
const KILT_ASSET_ID = Number('assetId' in KILT_HYDRATION ? KILT_HYDRATION.assetId : NaN); // Hydration's Tokens id (28)
const KILT_AH = sdk.findAssetOnDestOrThrow('Hydration', 'AssetHubPolkadot', { symbol: 'KILT' });

describe.each(FAMILIES)('/%s pre-flight over a hop without dry-run support (Hydration -> KiltSpiritnet -> AssetHubPolkadot, KILT)', (family) => {
  let hydration: TestChain;
  let ah: TestChain;
  let kilt: TestChain;
  let local: ReturnType<typeof testApp>;

  beforeAll(async () => {
    // The premise, from the registry: the hop has no DryRunApi, the other two have it.
    expect(['KiltSpiritnet', 'Hydration', 'AssetHubPolkadot'].map((c) => sdk.hasDryRunSupport(c as TChain))).toEqual([false, true, true]);
    [hydration, ah, kilt] = await Promise.all([startTestChain('Hydration'), startTestChain('AssetHubPolkadot'), startTestChain('Hydration')]);
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await Promise.all([hydration.close(), ah.close(), kilt.close()]);
  });

  beforeEach(() => {
    seedNative(hydration, SENDER, 10n ** 15n); // 1 000 HDX
    seedTokens(hydration, SENDER, KILT_ASSET_ID, SENDER_KILT);
    answerQueryInfo(hydration, HYDRATION_PARTIAL_FEE);
    answerQueryInfo(kilt, KILT_PARTIAL_FEE);
    answerDryRunCall(hydration, (r) =>
      callSuccess(r, {
        sender: SENDER,
        amount: ONE_KILT,
        forwarded: {
          destination: parachain(2086),
          message: throughReserveMessage(r, { asset: { parents: 0, interior: 'Here' }, inDest: parachain(2086), amount: ONE_KILT, dest: parachain(1000), beneficiary: ADDRESS }),
        },
      }),
    );
  });

  const body = (extra: Record<string, unknown> = {}, apiOverrides: Record<string, string> = { Hydration: hydration.url, AssetHubPolkadot: ah.url, KiltSpiritnet: kilt.url }) => ({
    from: 'Hydration',
    to: 'AssetHubPolkadot',
    currency: { symbol: 'KILT', amount: oneKilt(family) },
    [accountFields(family).recipient]: ADDRESS,
    [accountFields(family).sender]: SENDER,
    options: { development: true, apiOverrides },
    ...extra,
  });
  const p = (endpoint: string, b: unknown = body()) => request(local.app).post(`/${family}/${endpoint}`).send(b as object);

  it('dry-run: the SDK stops at the hop, a failed leg naming the missing DryRunApi; no destination', async () => {
    const res = await p('dry-run').expect(200);
    expect(res.body).toEqual({
      success: false,
      dryRunError: { reason: UNSUPPORTED, chain: 'KiltSpiritnet', chainKind: 'hop' },
      origin: { success: true, fee: HYDRATION_PARTIAL_FEE.toString(), asset: HDX, forwardedXcms: expect.any(Array), destParaId: 2086 },
      // The SDK labels the hop with the asset as the origin knows it (Hydration's KILT, asset 28).
      hops: [{ chain: 'KiltSpiritnet', result: { success: false, dryRunError: { reason: UNSUPPORTED }, asset: KILT_HYDRATION } }],
    });
    expect(res.body.origin.forwardedXcms[0]).toEqual({ v5: { parents: 1, interior: { x1: [{ parachain: 2086 }] } } });
    // It dials the hop before it looks at its support: development mode needs an override for it too.
    const missing = await p('dry-run', body({}, { Hydration: hydration.url, AssetHubPolkadot: ah.url })).expect(400);
    expectErrorBody(missing.body, 400, 'MissingChainApiError');
    expect(missing.body.message).toContain('KiltSpiritnet');
  });

  it('xcm-fee: the hop is priced with payment info (also with disableFallback); the destination is never reached, and the answer says so', async () => {
    const fee = await p('xcm-fee').expect(200);
    expect(fee.body).toEqual({
      // The SDK prices a chain without DryRunApi with payment info silently; its destination is a
      // placeholder, which does not pass for a success.
      success: false,
      dryRunError: { reason: UNREACHED, chain: 'AssetHubPolkadot', chainKind: 'destination' },
      origin: { fee: HYDRATION_PARTIAL_FEE.toString(), feeType: 'dryRun', sufficient: true, asset: HDX },
      hops: [{ chain: 'KiltSpiritnet', result: { fee: KILT_HOP_FEE.toString(), feeType: 'paymentInfo', sufficient: true, asset: KILT_NATIVE } }],
      // The SDK's placeholder for a destination its traversal did not reach (sdk-core getXcmFeeOnce), marked as such.
      destination: { fee: '0', feeType: 'noFeeRequired', sufficient: true, asset: { ...DOT_AH, amount: '0' }, dryRunError: { reason: UNREACHED } },
    });
    // A chain without DryRunApi is priced with payment info whatever disableFallback says.
    expect((await p('xcm-fee', body({ disableFallback: true })).expect(200)).body).toEqual(fee.body);
  });

  it('transfer-info: the hop with its payment-info fee; the destination counts that fee only, its placeholder fee marked', async () => {
    const res = await p('transfer-info').expect(200);
    expect(res.body.hops).toEqual([
      {
        chain: 'KiltSpiritnet',
        result: { xcmFee: { fee: KILT_HOP_FEE.toString(), asset: KILT_NATIVE }, asset: KILT_NATIVE, existentialDeposit: KILT_NATIVE.existentialDeposit },
      },
    ]);
    expect(res.body.origin.selectedCurrency).toEqual({
      sufficient: true,
      balance: SENDER_KILT.toString(),
      balanceAfter: (SENDER_KILT - ONE_KILT).toString(),
      asset: KILT_HYDRATION,
      existentialDeposit: KILT_HYDRATION.existentialDeposit,
    });
    // Asset Hub's KILT as the registry matches it by symbol; nothing was priced there.
    expect(res.body.destination).toEqual({
      receivedCurrency: {
        sufficient: true,
        receivedAmount: (ONE_KILT - KILT_HOP_FEE).toString(),
        balance: '0',
        balanceAfter: (ONE_KILT - KILT_HOP_FEE).toString(),
        asset: KILT_AH,
        existentialDeposit: KILT_AH.existentialDeposit,
      },
      xcmFee: { fee: '0', balance: '0', balanceAfter: '0', asset: DOT_AH, dryRunError: { reason: UNREACHED } },
    });
  });

  it('the amounts that need every hop dry-run refuse, naming the hop; transferable-amount (origin only) answers', async () => {
    for (const endpoint of ['receivable-amount', 'min-transferable-amount']) {
      const res = await p(endpoint).expect(400);
      expectErrorBody(res.body, 400, 'RuntimeApiUnavailableError');
      expect(res.body.message, endpoint).toMatch(/\(through KiltSpiritnet\) needs the dry-run runtime API, which KiltSpiritnet does not provide/);
    }
    const verify = await p('verify-ed-on-destination').expect(400);
    expectErrorBody(verify.body, 400, 'UnableToComputeError');
    expect(verify.body.message).toBe(
      'No destination fee could be computed on AssetHubPolkadot: the XCM passes KiltSpiritnet, which has no dry-run support, so the SDK cannot follow it to AssetHubPolkadot',
    );
    // Rule 1: KILT is not Hydration's native asset, so the origin fee (HDX) does not count.
    const transferable = await p('transferable-amount').expect(200);
    expect(transferable.body).toBe((SENDER_KILT - BigInt(KILT_HYDRATION.existentialDeposit ?? '0')).toString());
  });
});

// ---- UnableToComputeError: what the SDK cannot compute once a fee fell back to payment info ----
//
// A failed origin dry run makes the SDK price the origin and the destination with payment info
// and label the destination fee with the destination's native asset (sdk-core getXcmFeeOnce).
// Transfer info then holds UnableToComputeError values (answered as `{error, message}`), the
// receivable amount and the ED check refuse with a 400 naming the destination.

const ONE_DOT = 10_000_000_000n;
const oneDot = (family: string) => (family === 'v5' ? ONE_DOT.toString() : '1');
const AH_PARTIAL_FEE = 15_000_000n;
const unableToCompute = (message: RegExp) => ({ error: 'UnableToComputeError', message: expect.stringMatching(message) });

describe.each(FAMILIES)('/%s UnableToComputeError through the real SDK', (family) => {
  const local = testApp();
  const { chains } = chainsForFile(['AssetHubPolkadot', 'Hydration', 'AssetHubKusama'], local.services, {});

  beforeEach(() => {
    seedNative(chains.AssetHubPolkadot, SENDER, 5n * ONE_DOT);
    answerQueryInfo(chains.AssetHubPolkadot, AH_PARTIAL_FEE);
    answerQueryInfo(chains.Hydration, 5_000_000n);
    answerQueryInfo(chains.AssetHubKusama, 5_000_000n);
  });

  const body = (to: string, currency: Record<string, unknown>, recipient = ADDRESS) => ({
    from: 'AssetHubPolkadot',
    to,
    currency,
    [accountFields(family).recipient]: recipient,
    [accountFields(family).sender]: SENDER,
    options: { development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url, Hydration: chains.Hydration.url, AssetHubKusama: chains.AssetHubKusama.url } },
  });
  const p = (endpoint: string, b: unknown) => request(local.app).post(`/${family}/${endpoint}`).send(b as object);
  const originFailsWith = (xcmError: string) => answerDryRunCall(chains.AssetHubPolkadot, (r) => callFailure(r, { xcmError, instruction: 1 }));

  it('DOT to Hydration with a failed origin dry run: the fee is in HDX, so the SDK cannot compute the DOT received', async () => {
    originFailsWith('FailedToTransactAsset');
    seedTokens(chains.Hydration, ADDRESS, 5, ONE_DOT); // the recipient holds 1 DOT on Hydration
    const b = body('Hydration', { symbol: { type: 'Native', value: 'DOT' }, amount: oneDot(family) });
    const info = await p('transfer-info', b).expect(200);
    const feeCurrency = unableToCompute(/^Unable to compute if dest balance will be sufficient\. Fee currency is not the same$/);
    expect(info.body.destination.receivedCurrency).toMatchObject({ sufficient: feeCurrency, receivedAmount: feeCurrency, balanceAfter: feeCurrency, balance: ONE_DOT.toString() });
    expect(info.body.destination.xcmFee.asset).toEqual(HDX);
    const receivable = await p('receivable-amount', b).expect(400);
    expectErrorBody(receivable.body, 400, 'UnableToComputeError');
    expect(receivable.body.message).toBe('The amount received on Hydration cannot be computed: Unable to compute if dest balance will be sufficient. Fee currency is not the same');
    // Rule 6's refusal: a payment-info fee on the destination, and DOT is not Hydration's native asset.
    const verify = await p('verify-ed-on-destination', b).expect(400);
    expectErrorBody(verify.body, 400, 'UnableToComputeError');
    expect(verify.body.message).toMatch(/^Cannot verify the existential deposit on Hydration: the destination fee could only be estimated with payment info/);
  }, 60_000);

  it('over the bridge to AssetHubKusama: KSM is not the origin native asset, DOT needs the bridge fee the failed dry run never priced', async () => {
    const recipient = 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F'; // a Kusama address
    // The sender holds no KSM on Asset Hub: the dry run cannot withdraw it.
    originFailsWith('FailedToTransactAsset');
    const ksm = body('AssetHubKusama', { symbol: 'KSM', amount: family === 'v5' ? (10n ** 12n).toString() : '1' }, recipient);
    const ksmInfo = await p('transfer-info', ksm).expect(200);
    expect(ksmInfo.body.destination.receivedCurrency.receivedAmount).toEqual(
      unableToCompute(/^Unable to compute received amount: The transferred asset \(KSM\) is not the native asset \(DOT\) of origin AssetHubPolkadot/),
    );
    const ksmReceivable = await p('receivable-amount', ksm).expect(400);
    expectErrorBody(ksmReceivable.body, 400, 'UnableToComputeError');
    expect(ksmReceivable.body.message).toMatch(/^The amount received on AssetHubKusama cannot be computed: .*\(KSM\) is not the native asset \(DOT\)/);

    // DOT: the lane refuses it (a dry run that stops at the bridge), so no bridge hub fee exists.
    originFailsWith('Unroutable');
    const dot = body('AssetHubKusama', { symbol: { type: 'Native', value: 'DOT' }, amount: oneDot(family) }, recipient);
    const dotInfo = await p('transfer-info', dot).expect(200);
    expect(dotInfo.body.destination.receivedCurrency.receivedAmount).toEqual(
      unableToCompute(/^bridgeFee is required for native asset transfer from AssetHubPolkadot to AssetHubKusama but was not provided\.$/),
    );
    const dotReceivable = await p('receivable-amount', dot).expect(400);
    expectErrorBody(dotReceivable.body, 400, 'UnableToComputeError');
    expect(dotReceivable.body.message).toMatch(/^The amount received on AssetHubKusama cannot be computed: bridgeFee is required/);
  }, 60_000);
});
