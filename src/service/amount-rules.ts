// The contract's amount formulas (Rules 1, 3, 6: written out in openapi.yaml under
// /transferable-amount, /min-transferable-amount and /verify-ed-on-destination), as pure bigint
// functions. The service gets balances and fees from the SDK (fee results via
// preflight-shapes.ts) and applies THESE formulas; it does not use the SDK's own
// getTransferableAmount / getMinTransferableAmount / verifyEdOnDestination results.
//
// How @paraspell/sdk-core 11.14.8 computes them (read from dist/index.cjs), against the contract:
//
// getTransferableAmount (getTransferableAmountInternal)
//   SDK: balance(asset) - ED(asset) - fee, floored at 0; `fee` is counted only when
//        `paysOriginInSendingAsset` = (no feeAsset && asset is the origin's native asset) ||
//        (feeAsset && isAssetEqual(feeAsset, asset)); the fee comes from getOriginXcmFee with
//        `destination: origin` (the tx is still the real one from buildTx) and fallback on.
//   Contract Rule 1: same formula and same "fee counts" condition.          -> MATCH
//   Differences: the SDK throws InvalidParameterError when the origin fee is undefined; it uses a
//   payment-info fee (native units, padded by padFee, e.g. +30% or x40 for system->para) just like a
//   dry-run fee. Rule 7 accepts that ("informational"). The /v5 Rule 2 wording ("minus fees if the
//   asset is native") ignores feeAsset; the SDK and /v2 do not.
//
// getMinTransferableAmount (getMinTransferableAmountInternal)
//   SDK: hopFeeTotal + destinationFee + originFee + edComponent + 1, where
//        originFee counts if paysOriginInSendingAsset && isAssetEqual(result.origin.asset, asset),
//        hop fees count if isAssetEqual(hop.result.asset, asset),
//        destinationFee counts if isAssetEqual(result.destination.asset, asset),
//        edComponent = destination ED when the recipient's destination balance is exactly 0.
//   Contract Rule 3: the same five terms.                                      -> MATCH (formula)
//   Differences:
//   * After the formula the SDK builds the tx with that amount; on AmountTooLowError it pads the
//     amount by 30% and retries; then it dry-runs with it and returns 0n (!) if the dry run fails
//     anywhere. The contract returns the formula value; Rule 7 says chains WITHOUT dry-run support
//     must give an error (the SDK silently uses payment info there).
//   * "Charged in the transferred asset" is decided by the SDK from each fee's `asset` label, but
//     11.x labels payment-info fees of hops/destination with the transferred asset although they
//     are native amounts - so the SDK can add a native-denominated fee to an asset amount.
//     Here the caller passes explicit `inTransferredAsset` flags (treat paymentInfo fees as native).
//   * The SDK compares hops with isAssetEqual here but isAssetXcEqual in transfer info/verifyEd.
//
// verifyEdOnDestination (verifyEdOnDestinationInternal)
//   SDK: returns `amount - feeToSubtract > (destBalance < destED ? destED : 0)`, where
//        feeToSubtract = destination fee, or (for transfer_assets_using_type_and_then) hop fees +
//        destination fee counted in the same asset (isAssetXcEqual).
//   Contract Rule 6: true if the recipient already has a balance, or amount - ED - destFee > 0.
//   Differences:
//   * Recipient with a balance: the contract says true outright; the SDK still needs
//     amount - fee > 0, and counts a balance BELOW the ED as "no balance" (requires > ED).
//     Here: any balance > 0 -> true (contract text).
//   * Error case: the contract errors when the fee fell back to payment info AND the transferred
//     currency is not the destination's native one. The SDK errors when feeType is paymentInfo and
//     the fee asset's SYMBOL differs from the destination asset's - because of the mislabelling
//     above that rarely fires in 11.x. Here: exactly the contract's condition.
//   * SDK extras not in the contract: Ethereum destination -> always true; substrate bridge ->
//     InvalidParameterError; origin or hop dry-run error -> DryRunFailedError; destination dry-run
//     error -> UnableToComputeError (even though a fallback fee exists).

import { ApiError, badRequest } from '../errors';

const max0 = (v: bigint): bigint => (v > 0n ? v : 0n);

/**
 * Rule 1 condition: the origin fee is paid in the queried asset "when no `feeAsset` is set and the
 * asset is the origin's native asset, or when the explicit `feeAsset` equals the queried asset".
 */
export function originFeeCountsInAsset(args: {
  /** A `feeAsset` was given in the request. */
  hasFeeAsset: boolean;
  /** The queried asset is the origin chain's native asset. */
  assetIsOriginNative: boolean;
  /** The given `feeAsset` is the queried asset (ignored without feeAsset). */
  feeAssetIsQueriedAsset?: boolean;
}): boolean {
  return args.hasFeeAsset ? args.feeAssetIsQueriedAsset === true : args.assetIsOriginNative;
}

/**
 * Rule 1 (`/v2/transferable-amount`): "result = max(balance - existentialDeposit - originFee, 0).
 * `originFee` is counted only when paid in the queried asset [...] Otherwise it contributes 0."
 */
export function transferableAmount(args: {
  balance: bigint;
  existentialDeposit: bigint;
  originFee: bigint;
  feeCountsInAsset: boolean;
}): bigint {
  const fee = args.feeCountsInAsset ? args.originFee : 0n;
  return max0(args.balance - args.existentialDeposit - fee);
}

export interface HopFee {
  amount: bigint;
  /** This hop charges its fee in the transferred asset. */
  inTransferredAsset: boolean;
}

/**
 * Rule 3 (`/v2/min-transferable-amount`): "hopFeeTotal + destinationFee + originFee + edComponent
 * + 1 base unit. Each term counts only when that fee is charged in the transferred asset.
 * hopFeeTotal is the sum of intermediate-chain fees in the transferred asset, and 0 when there are
 * no hops. originFee [...] counts only when denominated in the transferred asset. edComponent
 * equals the destination's existential deposit when the recipient holds 0 of the asset there,
 * otherwise 0. The trailing 1 is rounding padding."
 */
export function minTransferableAmount(args: {
  hopFees: readonly HopFee[];
  destinationFee: bigint;
  destinationFeeInAsset: boolean;
  originFee: bigint;
  originFeeInAsset: boolean;
  destinationEd: bigint;
  recipientDestBalance: bigint;
}): bigint {
  const hopFeeTotal = args.hopFees.reduce((acc, h) => (h.inTransferredAsset ? acc + h.amount : acc), 0n);
  const destinationFee = args.destinationFeeInAsset ? args.destinationFee : 0n;
  const originFee = args.originFeeInAsset ? args.originFee : 0n;
  const edComponent = args.recipientDestBalance === 0n ? args.destinationEd : 0n;
  return hopFeeTotal + destinationFee + originFee + edComponent + 1n;
}

/**
 * Rule 6 (`/verify-ed-on-destination`): "true if the recipient already has a balance, or if
 * transferred amount - existential deposit - destination fee > 0. Otherwise false. When the query
 * has fallen back to payment info and the transferred currency is not the destination's native
 * currency, the query fails with an error, since payment info returns fees only in the native
 * asset."
 *
 * @throws ApiError 400 `UnableToComputeError` for payment-info fees on a non-native currency.
 */
export function verifyEdOnDestination(args: {
  recipientBalance: bigint;
  amount: bigint;
  existentialDeposit: bigint;
  destinationFee: bigint;
  feeType: string | undefined;
  currencyIsDestinationNative: boolean;
  /** The destination chain, named in the error. */
  destination: string;
}): boolean {
  if (args.feeType === 'paymentInfo' && !args.currencyIsDestinationNative) {
    throw unableToComputeEd(args.destination);
  }
  if (args.recipientBalance > 0n) return true;
  return args.amount - args.existentialDeposit - args.destinationFee > 0n;
}

function unableToComputeEd(destination: string): ApiError {
  return badRequest(
    'UnableToComputeError',
    `Cannot verify the existential deposit on ${destination}: the destination fee could only be estimated ` +
      'with payment info (the dry run failed or is not supported), and payment info returns fees in the ' +
      "destination's native asset only, while the transferred currency is not that native asset.",
  );
}
