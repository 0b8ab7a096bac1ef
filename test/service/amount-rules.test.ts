import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import {
  minTransferableAmount,
  originFeeCountsInAsset,
  transferableAmount,
  verifyEdOnDestination,
} from '../../src/service/preflight/amount-rules';

const DOT = 10_000_000_000n; // 1 DOT in planck (10 decimals)

describe('originFeeCountsInAsset (Rule 1 condition)', () => {
  it('no feeAsset: counts only for the origin native asset', () => {
    expect(originFeeCountsInAsset({ hasFeeAsset: false, assetIsOriginNative: true })).toBe(true);
    expect(originFeeCountsInAsset({ hasFeeAsset: false, assetIsOriginNative: false })).toBe(false);
    // feeAssetIsQueriedAsset is irrelevant without a feeAsset
    expect(originFeeCountsInAsset({ hasFeeAsset: false, assetIsOriginNative: false, feeAssetIsQueriedAsset: true })).toBe(false);
  });

  it('explicit feeAsset: counts only when it is the queried asset (native or not)', () => {
    expect(originFeeCountsInAsset({ hasFeeAsset: true, assetIsOriginNative: false, feeAssetIsQueriedAsset: true })).toBe(true);
    expect(originFeeCountsInAsset({ hasFeeAsset: true, assetIsOriginNative: true, feeAssetIsQueriedAsset: false })).toBe(false);
    expect(originFeeCountsInAsset({ hasFeeAsset: true, assetIsOriginNative: true })).toBe(false);
  });
});

describe('transferableAmount (Rule 1)', () => {
  it('native DOT on Polkadot: 100 DOT - 1 DOT ED - 0.02 DOT fee = 98.98 DOT', () => {
    expect(
      transferableAmount({ balance: 100n * DOT, existentialDeposit: DOT, originFee: 200_000_000n, feeCountsInAsset: true }),
    ).toBe(989_800_000_000n);
  });

  it('fee paid in another asset contributes 0: 100 USDt - 0.01 ED = 99.99 USDt', () => {
    expect(
      transferableAmount({ balance: 100_000_000n, existentialDeposit: 10_000n, originFee: 26_000_000n, feeCountsInAsset: false }),
    ).toBe(99_990_000n);
  });

  it('zero floor: balance below ED + fee gives 0, never negative', () => {
    expect(transferableAmount({ balance: 5n * 10n ** 9n, existentialDeposit: DOT, originFee: 1n, feeCountsInAsset: true })).toBe(0n);
    expect(transferableAmount({ balance: DOT + 7n, existentialDeposit: DOT, originFee: 7n, feeCountsInAsset: true })).toBe(0n);
    expect(transferableAmount({ balance: DOT + 8n, existentialDeposit: DOT, originFee: 7n, feeCountsInAsset: true })).toBe(1n);
    expect(transferableAmount({ balance: 0n, existentialDeposit: 0n, originFee: 0n, feeCountsInAsset: false })).toBe(0n);
  });
});

describe('minTransferableAmount (Rule 3)', () => {
  const everyTermInAsset = {
    hopFees: [{ amount: 40_000_000n, inTransferredAsset: true }],
    destinationFee: 3_000_000n,
    destinationFeeInAsset: true,
    originFee: 200_000_000n,
    originFeeInAsset: true,
    destinationEd: 100_000_000n,
  };

  it('every term in the transferred asset, recipient empty: 0.004 + 0.0003 + 0.02 + 0.01 DOT + 1', () => {
    expect(minTransferableAmount({ ...everyTermInAsset, recipientDestBalance: 0n })).toBe(
      40_000_000n + 3_000_000n + 200_000_000n + 100_000_000n + 1n, // 343_000_001
    );
  });

  it('ED component off when the recipient already holds the asset', () => {
    expect(minTransferableAmount({ ...everyTermInAsset, recipientDestBalance: 1n })).toBe(243_000_001n);
  });

  it('Hydration -> Moonbeam DOT via AssetHub: origin fee in HDX and destination fee in GLMR do not count', () => {
    expect(
      minTransferableAmount({
        hopFees: [
          { amount: 40_000_000n, inTransferredAsset: true }, // AssetHub takes DOT
          { amount: 999_999n, inTransferredAsset: false }, // some hop charging another asset
        ],
        destinationFee: 5_000_000_000_000_000n, // GLMR
        destinationFeeInAsset: false,
        originFee: 2_000_000_000_000n, // HDX
        originFeeInAsset: false,
        destinationEd: 100_000_000n,
        recipientDestBalance: 0n,
      }),
    ).toBe(140_000_001n);
  });

  it('no hops and nothing charged in the asset: just the padding (+ ED when recipient is empty)', () => {
    const base = {
      hopFees: [],
      destinationFee: 10n,
      destinationFeeInAsset: false,
      originFee: 10n,
      originFeeInAsset: false,
      destinationEd: 100n,
    };
    expect(minTransferableAmount({ ...base, recipientDestBalance: 5n })).toBe(1n);
    expect(minTransferableAmount({ ...base, recipientDestBalance: 0n })).toBe(101n);
  });
});

describe('verifyEdOnDestination (Rule 6)', () => {
  const base = {
    recipientBalance: 0n,
    amount: DOT,
    existentialDeposit: 100_000_000n,
    destinationFee: 3_000_000n,
    feeType: 'dryRun',
    currencyIsDestinationNative: false,
    destination: 'Hydration',
  };

  it('recipient already has a balance -> true, whatever the amount', () => {
    expect(verifyEdOnDestination({ ...base, recipientBalance: 1n, amount: 1n })).toBe(true);
  });

  it('empty recipient: amount - ED - fee must be > 0 (strict)', () => {
    // 1 DOT - 0.01 ED - 0.0003 fee = 0.9897 DOT > 0
    expect(verifyEdOnDestination(base)).toBe(true);
    // exactly ED + fee -> 0, not > 0
    expect(verifyEdOnDestination({ ...base, amount: 103_000_000n })).toBe(false);
    expect(verifyEdOnDestination({ ...base, amount: 103_000_001n })).toBe(true);
    expect(verifyEdOnDestination({ ...base, amount: 50_000_000n })).toBe(false);
  });

  it('payment-info fee on the destination native currency is accepted', () => {
    expect(verifyEdOnDestination({ ...base, feeType: 'paymentInfo', currencyIsDestinationNative: true })).toBe(true);
    expect(verifyEdOnDestination({ ...base, feeType: 'noFeeRequired', destinationFee: 0n })).toBe(true);
  });

  it('payment-info fee with a non-native currency -> 400 UnableToComputeError explaining why', () => {
    const call = () => verifyEdOnDestination({ ...base, feeType: 'paymentInfo', currencyIsDestinationNative: false });
    expect(call).toThrow(ApiError);
    try {
      call();
    } catch (e) {
      const err = e as ApiError;
      expect(err.status).toBe(400);
      expect(err.kind).toBe('UnableToComputeError');
      expect(err.message).toMatch(/^Cannot verify the existential deposit on Hydration: /);
      expect(err.message).toMatch(/payment info/);
      expect(err.message).toMatch(/native/);
    }
    // The contract's error condition does not depend on the recipient's balance.
    expect(() => verifyEdOnDestination({ ...base, recipientBalance: 5n, feeType: 'paymentInfo' })).toThrow(ApiError);
  });
});
