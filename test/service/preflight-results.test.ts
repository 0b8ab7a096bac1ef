import { describe, expect, it } from 'vitest';
import type {
  TAssetInfo,
  TDryRunResult,
  TGetXcmFeeResult,
  TTransferInfo,
  TXcmFeeDetail,
  TXcmFeeDetailSuccess,
  THopTransferInfo,
  TDryRunChainSuccess,
} from '@paraspell/sdk-pjs';
import { sdk } from '../../src/sdk';
import { registryAssetResolver, toContractAsset, type AssetResolver, type ContractAsset } from '../../src/service/preflight/contract-asset';
import { toDryRunResult } from '../../src/service/preflight/dry-run-result';
import { toTransferInfoResult } from '../../src/service/preflight/transfer-info-result';
import { toXcmFeeResult, type SdkOriginXcmFee } from '../../src/service/preflight/xcm-fee-result';
import { ApiError } from '../../src/errors';
import {
  AH_HOP_FEE,
  AH_ORIGIN_DRY_RUN,
  AH_ORIGIN_DRY_RUN_CONTRACT,
  DOT_AH,
  DOT_BH,
  DOT_HYDRATION,
  DOT_POLKADOT,
  DRY_RUN_HOP_FAILURE,
  FWD_TO_1000,
  FWD_TO_1002,
  FWD_TO_ETH,
  GLMR,
  HDX,
  ORIGIN_FEE_DRY_RUN,
  USDT_AH,
  USDT_HYDRATION,
  XCM_FEE_ORIGIN_FALLBACK,
} from '../fixtures/sdk-results';

/** Contract form of a registry asset (ED string, no manuallyAdded, same optional flags). */
const c = (a: TAssetInfo, extra: Partial<ContractAsset> = {}): ContractAsset => {
  const out: ContractAsset = { symbol: a.symbol, decimals: a.decimals, existentialDeposit: a.existentialDeposit ?? '' };
  if (a.location) out.location = a.location;
  if ('assetId' in a && a.assetId !== undefined) out.assetId = a.assetId;
  if ('isNative' in a) out.isNative = a.isNative;
  if (a.isFeeAsset !== undefined) out.isFeeAsset = a.isFeeAsset;
  if (a.alias !== undefined) out.alias = a.alias;
  return { ...out, ...extra };
};

const LEGACY_KEYS = new Set([
  'failureReason',
  'failureSubReason',
  'failureChain',
  'failureIndex',
  'failureInstruction',
  'currency',
  'currencySymbol',
  'assetHub',
  'bridgeHub',
  'dryRunSubError',
  'dryRunErrorIndex',
  'dryRunErrorInstruction',
  'manuallyAdded',
]);

/** Walks a translated result: no legacy key, no bigint, no undefined value, dryRunError always an object. */
function assertContractClean(v: unknown, path = '$'): void {
  expect(typeof v, `${path} is bigint`).not.toBe('bigint');
  expect(v, `${path} is undefined`).not.toBeUndefined();
  if (Array.isArray(v)) return v.forEach((x, i) => assertContractClean(x, `${path}[${i}]`));
  if (typeof v !== 'object' || v === null) return;
  if (path.includes('forwardedXcms')) return; // chain data, passed through
  for (const [k, x] of Object.entries(v)) {
    expect(LEGACY_KEYS.has(k), `${path}.${k} is a legacy key`).toBe(false);
    if (k === 'dryRunError') expect(typeof x, `${path}.dryRunError`).toBe('object');
    assertContractClean(x, `${path}.${k}`);
  }
}

// =============================================================================================
describe('toContractAsset', () => {
  it('keeps every contract field, drops manuallyAdded, ED stays a string', () => {
    const withExtra: TAssetInfo = { ...USDT_HYDRATION, manuallyAdded: true };
    // The fixtures hold exactly the contract's fields, so a registry asset comes back as itself.
    expect(toContractAsset(withExtra, 'Hydration')).toEqual(USDT_HYDRATION);
    expect(toContractAsset(DOT_POLKADOT, 'Polkadot')).toEqual(DOT_POLKADOT);
  });

  it('completes a missing ED / location through the resolver', () => {
    const bare: TAssetInfo = { symbol: 'USDt', decimals: 6, assetId: '1984' };
    const resolver: AssetResolver = (chain, ref) => (chain === 'AssetHubPolkadot' && typeof ref === 'object' ? c(USDT_AH) : undefined);
    expect(toContractAsset(bare, 'AssetHubPolkadot', resolver)).toEqual({
      symbol: 'USDt',
      decimals: 6,
      assetId: '1984',
      existentialDeposit: '10000',
      location: USDT_AH.location,
    });
  });

  it('throws a 500 ApiError when no ED can be found (never for registry assets)', () => {
    const bare: TAssetInfo = { symbol: 'XYZ', decimals: 6, assetId: '1' };
    expect(() => toContractAsset(bare, 'Hydration')).toThrow(ApiError);
    try {
      toContractAsset(bare, 'Hydration');
    } catch (e) {
      expect((e as ApiError).status).toBe(500);
      expect((e as ApiError).kind).toBe('AssetInfoIncompleteError');
    }
  });
});

describe('registryAssetResolver (SDK registry, offline)', () => {
  it('resolves natives, symbols (ambiguous -> native), assets and rejects unknown chains', () => {
    expect(registryAssetResolver('AssetHubPolkadot', { native: true })).toEqual(c(DOT_AH));
    expect(registryAssetResolver('AssetHubPolkadot', 'DOT')).toEqual(c(DOT_AH)); // DOT is ambiguous there
    expect(registryAssetResolver('BridgeHubPolkadot', 'DOT')).toEqual(c(DOT_BH));
    expect(registryAssetResolver('AssetHubPolkadot', { symbol: 'USDt', decimals: 6, assetId: '1984' })).toEqual(c(USDT_AH));
    expect(registryAssetResolver('Hydration', { native: true })).toEqual(c(HDX));
    expect(registryAssetResolver('NoSuchChain', 'DOT')).toBeUndefined();
    expect(registryAssetResolver('Hydration', 'NOPE_NOT_A_SYMBOL')).toBeUndefined();
    // Registry asset without location: still resolved, location simply absent.
    const tap = registryAssetResolver('Acala', 'TAP');
    expect(tap).toMatchObject({ symbol: 'TAP', decimals: 12, existentialDeposit: '1000000000000' });
    expect(tap && 'location' in tap).toBe(false);
  });
});

// =============================================================================================
describe('toDryRunResult', () => {
  it('origin failure: success false, top-level dryRunError (origin), origin holds dryRunError, no destination, hops []', () => {
    // Exactly what dryRunInternal returns when the origin dry run fails.
    const sdkResult: TDryRunResult = {
      failureReason: 'FailedToTransactAsset',
      failureSubReason: 'FundsUnavailable',
      failureChain: 'origin',
      origin: {
        success: false,
        failureReason: 'FailedToTransactAsset',
        failureSubReason: 'FundsUnavailable',
        currency: 'HDX',
        asset: HDX,
      },
      hops: [],
    };
    const r = toDryRunResult(sdkResult, { origin: 'Hydration', destination: 'AssetHubPolkadot' });
    expect(r).toEqual({
      success: false,
      dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable', chain: 'Hydration', chainKind: 'origin' },
      origin: { success: false, dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable' }, asset: c(HDX) },
      hops: [],
    });
    expect('destination' in r).toBe(false);
    assertContractClean(r);
  });

  it('origin failure without subReason leaves subReason out', () => {
    const sdkResult: TDryRunResult = {
      failureReason: 'Filtered',
      failureChain: 'origin',
      origin: { success: false, failureReason: 'Filtered', currency: 'DOT', asset: DOT_POLKADOT },
      hops: [],
    };
    const r = toDryRunResult(sdkResult, { origin: 'Polkadot', destination: 'AssetHubPolkadot' });
    expect(r.dryRunError).toEqual({ reason: 'Filtered', chain: 'Polkadot', chainKind: 'origin' });
    expect(r.origin).toEqual({ success: false, dryRunError: { reason: 'Filtered' }, asset: c(DOT_POLKADOT) });
  });

  it('destination failure: origin success with every field, destination with dryRunError without chain', () => {
    const sdkResult: TDryRunResult = {
      failureReason: 'UntrustedReserveLocation',
      failureChain: 'destination',
      origin: AH_ORIGIN_DRY_RUN,
      destination: { success: false, failureReason: 'UntrustedReserveLocation', currency: 'USDT', asset: USDT_HYDRATION },
      hops: [],
    };
    const r = toDryRunResult(sdkResult, { origin: 'AssetHubPolkadot', destination: 'Hydration' });
    expect(r.success).toBe(false);
    expect(r.dryRunError).toEqual({ reason: 'UntrustedReserveLocation', chain: 'Hydration', chainKind: 'destination' });
    expect(r.origin).toEqual(AH_ORIGIN_DRY_RUN_CONTRACT);
    expect(r.destination).toEqual({
      success: false,
      dryRunError: { reason: 'UntrustedReserveLocation' },
      asset: c(USDT_HYDRATION),
    });
    expect(r.destination && 'dryRunError' in r.destination && 'chain' in r.destination.dryRunError).toBe(false);
    expect(r.hops).toEqual([]);
    assertContractClean(r);
  });

  it('hop failure on the asset hub: chainKind hop, chain name, assetHub folded (no duplicate)', () => {
    const r = toDryRunResult(DRY_RUN_HOP_FAILURE, { origin: 'Hydration', destination: 'Moonbeam' });
    expect(r.success).toBe(false);
    expect(r.dryRunError).toEqual({ reason: 'Barrier', chain: 'AssetHubPolkadot', chainKind: 'hop' });
    expect(r.hops).toEqual([
      { chain: 'AssetHubPolkadot', result: { success: false, dryRunError: { reason: 'Barrier' }, asset: c(DOT_AH) } },
    ]);
    expect('destination' in r).toBe(false);
    expect(r.origin.success).toBe(true);
    assertContractClean(r);
  });

  it('success with asset hub + bridge hub hops (to Ethereum): hops only, no duplicates, no destination', () => {
    const ahHop: TDryRunChainSuccess = {
      success: true,
      fee: 40_000_000n,
      weight: { refTime: 10n, proofSize: 20n },
      forwardedXcms: FWD_TO_1002,
      destParaId: 1002,
      currency: 'DOT',
      asset: DOT_AH,
    };
    // The bridge hub hop's fee already includes the Ethereum bridge fee (written back by the SDK).
    const bhHop: TDryRunChainSuccess = {
      success: true,
      fee: 90_000_000n,
      forwardedXcms: FWD_TO_ETH,
      currency: 'DOT',
      asset: DOT_AH,
    };
    const sdkResult: TDryRunResult = {
      origin: {
        success: true,
        fee: 1_500_000_000_000n,
        weight: { refTime: 1n, proofSize: 2n },
        forwardedXcms: FWD_TO_1000,
        destParaId: 1000,
        currency: 'HDX',
        asset: HDX,
      },
      assetHub: ahHop,
      bridgeHub: { ...bhHop, currency: 'DOT', asset: DOT_BH },
      hops: [
        { chain: 'AssetHubPolkadot', result: ahHop },
        { chain: 'BridgeHubPolkadot', result: bhHop },
      ],
    };
    const r = toDryRunResult(sdkResult, { origin: 'Hydration', destination: 'Ethereum' });
    expect(r.success).toBe(true);
    expect('dryRunError' in r).toBe(false);
    expect('destination' in r).toBe(false);
    expect(r.hops).toEqual([
      {
        chain: 'AssetHubPolkadot',
        result: {
          success: true,
          fee: '40000000',
          asset: c(DOT_AH),
          weight: { refTime: '10', proofSize: '20' },
          forwardedXcms: FWD_TO_1002,
          destParaId: 1002,
        },
      },
      { chain: 'BridgeHubPolkadot', result: { success: true, fee: '90000000', asset: c(DOT_AH), forwardedXcms: FWD_TO_ETH } },
    ]);
    expect(r.origin).toMatchObject({ success: true, fee: '1500000000000', destParaId: 1000, asset: c(HDX) });
    assertContractClean(r);
  });

  it('success with a destination: destination carries fee/asset/weight; forwardedXcms [] when nothing forwarded', () => {
    const sdkResult: TDryRunResult = {
      origin: {
        success: true,
        fee: 200_000_000n,
        weight: { refTime: 7n, proofSize: 8n },
        forwardedXcms: FWD_TO_1000,
        destParaId: 1000,
        currency: 'DOT',
        asset: DOT_POLKADOT,
      },
      destination: {
        success: true,
        fee: 3_000_000n,
        weight: { refTime: 9n, proofSize: 10n },
        forwardedXcms: [],
        currency: 'DOT',
        asset: DOT_AH,
      },
      hops: [],
    };
    const r = toDryRunResult(sdkResult, { origin: 'Polkadot', destination: 'AssetHubPolkadot' });
    expect(r).toEqual({
      success: true,
      origin: {
        success: true,
        fee: '200000000',
        asset: c(DOT_POLKADOT),
        weight: { refTime: '7', proofSize: '8' },
        forwardedXcms: FWD_TO_1000,
        destParaId: 1000,
      },
      destination: {
        success: true,
        fee: '3000000',
        asset: c(DOT_AH),
        weight: { refTime: '9', proofSize: '10' },
        forwardedXcms: [],
      },
      hops: [],
    });
    assertContractClean(r);
  });

  it('defensive: an assetHub object missing from hops is appended as a hop named after the relay', () => {
    const ah: TDryRunChainSuccess = { success: true, fee: 1n, forwardedXcms: [], currency: 'DOT', asset: DOT_AH };
    const sdkResult: TDryRunResult = {
      origin: { success: true, fee: 2n, forwardedXcms: FWD_TO_1000, destParaId: 1000, currency: 'HDX', asset: HDX },
      assetHub: ah,
      hops: [],
    };
    const r = toDryRunResult(sdkResult, { origin: 'Hydration', destination: 'Moonbeam' });
    expect(r.hops.map((h) => h.chain)).toEqual(['AssetHubPolkadot']);
    assertContractClean(r);
  });

  it('top-level failureReason without a failed leg is still reported (failureChain mapped)', () => {
    const sdkResult: TDryRunResult = {
      failureReason: 'Something',
      failureChain: 'Moonbeam',
      origin: { success: true, fee: 2n, forwardedXcms: [], currency: 'HDX', asset: HDX },
      hops: [],
    };
    const r = toDryRunResult(sdkResult, { origin: 'Hydration', destination: 'Moonbeam' });
    expect(r.success).toBe(false);
    expect(r.dryRunError).toEqual({ reason: 'Something', chain: 'Moonbeam', chainKind: 'destination' });
  });
});

// =============================================================================================
/** Most fee fixtures price AssetHubPolkadot -> Hydration. */
const AH_TO_HYDRATION = { origin: 'AssetHubPolkadot', destination: 'Hydration', resolveAsset: registryAssetResolver };

describe('toXcmFeeResult (full)', () => {
  const opts = { origin: 'Hydration', destination: 'Ethereum', resolveAsset: registryAssetResolver };

  it('success with asset hub + bridge hub hops: every field, hubs folded, destination asset has amount', () => {
    const bhDetail: TXcmFeeDetailSuccess = { fee: 90_000_000n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_AH };
    const sdkResult: TGetXcmFeeResult<false> = {
      origin: {
        weight: { refTime: 111n, proofSize: 222n },
        fee: 1_500_000_000_000n,
        feeType: 'dryRun',
        sufficient: true,
        currency: 'HDX',
        asset: HDX,
      },
      assetHub: AH_HOP_FEE,
      bridgeHub: bhDetail,
      destination: { fee: 0n, feeType: 'noFeeRequired', sufficient: true, currency: 'WETH', asset: DOT_AH },
      hops: [
        { chain: 'AssetHubPolkadot', result: AH_HOP_FEE },
        { chain: 'BridgeHubPolkadot', result: bhDetail },
      ],
    };
    const r = toXcmFeeResult(sdkResult, opts);
    expect(r).toEqual({
      success: true,
      origin: {
        fee: '1500000000000',
        feeType: 'dryRun',
        sufficient: true,
        asset: c(HDX),
        weight: { refTime: '111', proofSize: '222' },
      },
      destination: { fee: '0', feeType: 'noFeeRequired', sufficient: true, asset: c(DOT_AH, { amount: '0' }) },
      hops: [
        { chain: 'AssetHubPolkadot', result: { fee: '40000000', feeType: 'dryRun', sufficient: true, asset: c(DOT_AH) } },
        { chain: 'BridgeHubPolkadot', result: { fee: '90000000', feeType: 'dryRun', sufficient: true, asset: c(DOT_AH) } },
      ],
    });
    assertContractClean(r);
  });

  it('destination asset amount is the destination fee', () => {
    const sdkResult: TGetXcmFeeResult<false> = {
      origin: { fee: 30_000_000n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_AH },
      destination: { fee: 22_000n, feeType: 'dryRun', sufficient: true, currency: 'USDT', asset: USDT_HYDRATION },
      hops: [],
    };
    const r = toXcmFeeResult(sdkResult, AH_TO_HYDRATION);
    expect(r.destination).toEqual({ fee: '22000', feeType: 'dryRun', sufficient: true, asset: c(USDT_HYDRATION, { amount: '22000' }) });
    expect(r.hops).toEqual([]);
    expect(r.success).toBe(true);
  });

  it('fallback to payment info after an origin dry-run failure: fees kept, native assets, dryRunError origin', () => {
    const r = toXcmFeeResult(XCM_FEE_ORIGIN_FALLBACK, AH_TO_HYDRATION);
    expect(r).toEqual({
      success: false,
      dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable', chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: {
        fee: '26000000',
        feeType: 'paymentInfo',
        sufficient: false,
        // payment info is a native amount: relabelled from USDt to AssetHub's DOT
        asset: c(DOT_AH),
        dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable' },
      },
      destination: { fee: '4000000000', feeType: 'paymentInfo', sufficient: true, asset: c(HDX, { amount: '4000000000' }) },
      hops: [],
    });
    assertContractClean(r);
  });

  it('paymentInfoInNative: false keeps the SDK label; without a resolver the SDK label is kept too', () => {
    const sdkResult: TGetXcmFeeResult<false> = {
      origin: { fee: 26_000_000n, feeType: 'paymentInfo', sufficient: true, currency: 'USDt', asset: USDT_AH },
      destination: { fee: 1n, feeType: 'paymentInfo', sufficient: true, currency: 'USDT', asset: USDT_HYDRATION },
      hops: [],
    };
    const keep = toXcmFeeResult(sdkResult, { ...AH_TO_HYDRATION, paymentInfoInNative: false });
    expect(keep.origin.asset).toEqual(c(USDT_AH));
    expect(keep.destination?.asset).toEqual(c(USDT_HYDRATION, { amount: '1' }));
    const noResolver = toXcmFeeResult(sdkResult, { origin: 'AssetHubPolkadot', destination: 'Hydration' });
    expect(noResolver.origin.asset).toEqual(c(USDT_AH));
    const relabelled = toXcmFeeResult(sdkResult, AH_TO_HYDRATION);
    expect(relabelled.origin.asset).toEqual(c(DOT_AH));
    expect(relabelled.destination?.asset).toEqual(c(HDX, { amount: '1' }));
    expect(relabelled.success).toBe(true);
  });

  it('hop failure with fallback: hop keeps its payment-info fee, chainKind hop', () => {
    const hop: TXcmFeeDetailSuccess = {
      fee: 50_000_000n,
      feeType: 'paymentInfo',
      sufficient: false,
      currency: 'DOT',
      asset: DOT_AH,
      dryRunError: 'Barrier',
    };
    const sdkResult: TGetXcmFeeResult<false> = {
      origin: {
        weight: { refTime: 1n, proofSize: 1n },
        fee: 2_000_000_000_000n,
        feeType: 'dryRun',
        sufficient: true,
        currency: 'HDX',
        asset: HDX,
      },
      assetHub: hop,
      destination: { fee: 0n, feeType: 'paymentInfo', sufficient: true, currency: 'GLMR', asset: GLMR },
      hops: [{ chain: 'AssetHubPolkadot', result: hop }],
      failureChain: 'assetHub',
      failureReason: 'Barrier',
    };
    const r = toXcmFeeResult(sdkResult, { origin: 'Hydration', destination: 'Moonbeam', resolveAsset: registryAssetResolver });
    expect(r.success).toBe(false);
    expect(r.dryRunError).toEqual({ reason: 'Barrier', chain: 'AssetHubPolkadot', chainKind: 'hop' });
    expect(r.hops).toEqual([
      {
        chain: 'AssetHubPolkadot',
        result: { fee: '50000000', feeType: 'paymentInfo', sufficient: false, asset: c(DOT_AH), dryRunError: { reason: 'Barrier' } },
      },
    ]);
    expect(r.destination).toEqual({ fee: '0', feeType: 'paymentInfo', sufficient: true, asset: c(GLMR, { amount: '0' }) });
    assertContractClean(r);
  });

  it('destination failure with disableFallback: no fee, no asset, dryRunError on destination', () => {
    // 11.x runtime: getDestXcmFee with disableFallback returns only {dryRunError, dryRunSubError};
    // getXcmFeeOnce then sets sufficient/currency/asset to undefined. The .d.ts claims `asset` is
    // required, so this fixture has to be cast: it is the real runtime shape.
    const destination = {
      sufficient: undefined,
      currency: undefined,
      asset: undefined,
      dryRunError: 'FailedToTransactAsset',
      dryRunSubError: 'BelowMinimum',
    } as unknown as TXcmFeeDetail;
    const sdkResult: TGetXcmFeeResult<true> = {
      origin: {
        weight: { refTime: 3n, proofSize: 4n },
        fee: 30_000_000n,
        feeType: 'dryRun',
        sufficient: true,
        currency: 'DOT',
        asset: DOT_AH,
      },
      destination,
      hops: [],
      failureChain: 'destination',
      failureReason: 'FailedToTransactAsset',
    };
    const r = toXcmFeeResult(sdkResult, AH_TO_HYDRATION);
    expect(r).toEqual({
      success: false,
      dryRunError: { reason: 'FailedToTransactAsset', subReason: 'BelowMinimum', chain: 'Hydration', chainKind: 'destination' },
      origin: { fee: '30000000', feeType: 'dryRun', sufficient: true, asset: c(DOT_AH), weight: { refTime: '3', proofSize: '4' } },
      destination: { dryRunError: { reason: 'FailedToTransactAsset', subReason: 'BelowMinimum' } },
      hops: [],
    });
    assertContractClean(r);
  });

  it('origin failed outright (disableFallback): no origin fee, destination dropped, hops []', () => {
    const sdkResult: TGetXcmFeeResult<true> = {
      origin: { dryRunError: 'Filtered', currency: 'DOT', asset: DOT_AH },
      destination: { fee: 0n, feeType: 'paymentInfo', sufficient: true, currency: 'HDX', asset: HDX },
      hops: [],
      failureChain: 'origin',
      failureReason: 'Filtered',
    };
    const r = toXcmFeeResult(sdkResult, AH_TO_HYDRATION);
    expect(r).toEqual({
      success: false,
      dryRunError: { reason: 'Filtered', chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: { asset: c(DOT_AH), dryRunError: { reason: 'Filtered' } },
      hops: [],
    });
    assertContractClean(r);
  });
});

describe('toXcmFeeResult (origin only)', () => {
  const opts = { ...AH_TO_HYDRATION, originOnly: true as const };

  it('dry-run origin fee: success, origin fields, no destination, no hops', () => {
    const r = toXcmFeeResult(ORIGIN_FEE_DRY_RUN, opts);
    expect(r).toEqual({
      success: true,
      origin: { fee: '30000000', feeType: 'dryRun', sufficient: true, asset: c(DOT_AH), weight: { refTime: '5', proofSize: '6' } },
    });
    expect('destination' in r).toBe(false);
    expect('hops' in r).toBe(false);
    assertContractClean(r);
  });

  it('payment-info origin (no dry-run support): SDK says currency DOT but asset USDt -> relabelled to native DOT', () => {
    const sdkResult: SdkOriginXcmFee = { fee: 26_000_000n, currency: 'DOT', asset: USDT_AH, feeType: 'paymentInfo', sufficient: true };
    const r = toXcmFeeResult(sdkResult, opts);
    expect(r).toEqual({ success: true, origin: { fee: '26000000', feeType: 'paymentInfo', sufficient: true, asset: c(DOT_AH) } });
  });

  it('disableFallback origin failure: success false, dryRunError origin, no fee', () => {
    const sdkResult: SdkOriginXcmFee = { dryRunError: 'Filtered', dryRunSubError: 'Other', currency: 'DOT', asset: DOT_AH };
    const r = toXcmFeeResult(sdkResult, opts);
    expect(r).toEqual({
      success: false,
      dryRunError: { reason: 'Filtered', subReason: 'Other', chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: { asset: c(DOT_AH), dryRunError: { reason: 'Filtered', subReason: 'Other' } },
    });
    assertContractClean(r);
  });

  it('a full result with originOnly keeps only origin', () => {
    const sdkResult: TGetXcmFeeResult<false> = {
      origin: { fee: 1n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_AH },
      destination: { fee: 2n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_HYDRATION },
      hops: [],
    };
    const r = toXcmFeeResult(sdkResult, opts);
    expect(Object.keys(r).sort()).toEqual(['origin', 'success']);
  });
});

// =============================================================================================
describe('toTransferInfoResult', () => {
  it('Hydration -> Moonbeam via AssetHub: all amounts strings, hops folded, UnableToCompute values mapped', () => {
    const ahHop: THopTransferInfo = {
      chain: 'AssetHubPolkadot',
      result: {
        xcmFee: { fee: 40_000_000n, currencySymbol: 'DOT', asset: DOT_AH },
        existentialDeposit: 100_000_000n,
        currencySymbol: 'DOT',
        asset: DOT_AH,
      },
    };
    const unable = new sdk.UnableToComputeError('Unable to compute if dest balance will be sufficient. Fee currency is not the same');
    const sdkResult: TTransferInfo = {
      chain: { origin: 'Hydration', destination: 'Moonbeam', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: {
          sufficient: true,
          balance: 50_000_000_000n,
          balanceAfter: 40_000_000_000n,
          currencySymbol: 'DOT',
          asset: DOT_HYDRATION,
          existentialDeposit: 17_540_000n,
        },
        xcmFee: {
          sufficient: true,
          fee: 2_000_000_000_000n,
          balance: 9_000_000_000_000n,
          balanceAfter: 7_000_000_000_000n,
          currencySymbol: 'HDX',
          asset: HDX,
        },
      },
      assetHub: { currencySymbol: 'DOT', asset: DOT_AH, existentialDeposit: 100_000_000n, xcmFee: ahHop.result.xcmFee },
      hops: [ahHop],
      destination: {
        receivedCurrency: {
          sufficient: unable,
          receivedAmount: unable,
          balance: 0n,
          balanceAfter: unable,
          currencySymbol: 'DOT',
          asset: DOT_AH, // stand-in for Moonbeam's xcDOT in this fixture
          existentialDeposit: 100_000_000n,
        },
        xcmFee: { fee: 5_000_000_000_000_000n, balanceAfter: unable, currencySymbol: 'GLMR', asset: GLMR },
      },
    };
    // buildDestInfo also returns xcmFee.balance (missing from the .d.ts).
    (sdkResult.destination.xcmFee as { balance?: bigint }).balance = 6_000_000_000_000_000n;

    const r = toTransferInfoResult(sdkResult, { resolveAsset: registryAssetResolver });
    const u = { error: 'UnableToComputeError', message: unable.message };
    expect(r).toEqual({
      chain: { origin: 'Hydration', destination: 'Moonbeam', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: {
          sufficient: true,
          balance: '50000000000',
          balanceAfter: '40000000000',
          asset: c(DOT_HYDRATION),
          existentialDeposit: '17540000',
        },
        xcmFee: { sufficient: true, fee: '2000000000000', balance: '9000000000000', balanceAfter: '7000000000000', asset: c(HDX) },
      },
      destination: {
        receivedCurrency: { sufficient: u, receivedAmount: u, balance: '0', balanceAfter: u, asset: c(DOT_AH), existentialDeposit: '100000000' },
        xcmFee: { fee: '5000000000000000', balance: '6000000000000000', balanceAfter: u, asset: c(GLMR) },
      },
      hops: [
        {
          chain: 'AssetHubPolkadot',
          result: { asset: c(DOT_AH), existentialDeposit: '100000000', xcmFee: { fee: '40000000', asset: c(DOT_AH) } },
        },
      ],
    });
    assertContractClean(r);
  });

  it('computed values pass through as strings/booleans; BridgeHub hop without asset gets one via resolver', () => {
    // buildHopInfo for a BridgeHub returns only {currencySymbol, xcmFee} (no asset, no ED) at runtime.
    const bhHop = {
      chain: 'BridgeHubPolkadot',
      result: { currencySymbol: 'DOT', xcmFee: { fee: 90_000_000n, currencySymbol: 'DOT', asset: DOT_AH } },
    } as unknown as THopTransferInfo;
    const ahHop: THopTransferInfo = {
      chain: 'AssetHubPolkadot',
      result: { xcmFee: { fee: 1n, currencySymbol: 'DOT', asset: DOT_AH }, existentialDeposit: 100_000_000n, currencySymbol: 'DOT', asset: DOT_AH },
    };
    const sdkResult: TTransferInfo = {
      chain: { origin: 'Hydration', destination: 'Ethereum', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: { sufficient: true, balance: 10n, balanceAfter: 5n, currencySymbol: 'DOT', asset: DOT_HYDRATION, existentialDeposit: 1n },
        xcmFee: { sufficient: false, fee: 3n, balance: 2n, balanceAfter: -1n, currencySymbol: 'HDX', asset: HDX },
      },
      assetHub: { currencySymbol: 'DOT', asset: DOT_AH, existentialDeposit: 100_000_000n, xcmFee: ahHop.result.xcmFee },
      bridgeHub: { currencySymbol: 'DOT', asset: DOT_AH, xcmFee: { fee: 90_000_000n, currencySymbol: 'DOT', asset: DOT_AH } },
      hops: [ahHop, bhHop],
      destination: {
        receivedCurrency: {
          sufficient: true,
          receivedAmount: 4n,
          balance: 0n,
          balanceAfter: 4n,
          currencySymbol: 'DOT',
          asset: DOT_AH,
          existentialDeposit: 100_000_000n,
        },
        xcmFee: { fee: 0n, balanceAfter: 0n, currencySymbol: 'DOT', asset: DOT_AH },
      },
    };
    const r = toTransferInfoResult(sdkResult, { resolveAsset: registryAssetResolver });
    expect(r.hops).toEqual([
      { chain: 'AssetHubPolkadot', result: { asset: c(DOT_AH), existentialDeposit: '100000000', xcmFee: { fee: '1', asset: c(DOT_AH) } } },
      { chain: 'BridgeHubPolkadot', result: { asset: c(DOT_BH), xcmFee: { fee: '90000000', asset: c(DOT_AH) } } },
    ]);
    expect(r.origin.xcmFee.balanceAfter).toBe('-1');
    expect(r.destination?.receivedCurrency).toMatchObject({ sufficient: true, receivedAmount: '4', balanceAfter: '4' });
    expect(r.destination?.xcmFee).toEqual({ fee: '0', balanceAfter: '0', asset: c(DOT_AH) });
    assertContractClean(r);
  });

  it('no hops in the SDK result -> hops []', () => {
    const sdkResult: TTransferInfo = {
      chain: { origin: 'Polkadot', destination: 'AssetHubPolkadot', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: { sufficient: true, balance: 1n, balanceAfter: 0n, currencySymbol: 'DOT', asset: DOT_POLKADOT, existentialDeposit: 1n },
        xcmFee: { sufficient: true, fee: 1n, balance: 1n, balanceAfter: 0n, currencySymbol: 'DOT', asset: DOT_POLKADOT },
      },
      destination: {
        receivedCurrency: { sufficient: true, receivedAmount: 1n, balance: 0n, balanceAfter: 1n, currencySymbol: 'DOT', asset: DOT_AH, existentialDeposit: 1n },
        xcmFee: { fee: 0n, balanceAfter: 1n, currencySymbol: 'DOT', asset: DOT_AH },
      },
    };
    const r = toTransferInfoResult(sdkResult);
    expect(r.hops).toEqual([]);
    expect(Object.keys(r).sort()).toEqual(['chain', 'destination', 'hops', 'origin']);
  });
});
