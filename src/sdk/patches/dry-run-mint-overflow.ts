// Patch: an amount too large for the SDK's fee-pricing dry run is a 400 naming currency.amount.
//
// Corrects: sdk-core 11.14.8 prices some routes' fees (type-and-then through Asset Hub, the
// bridge, Hydration's and Moonbeam's DOT) by dry-running the transfer after minting the sender
// the amount plus 1,000 of the asset (wrapTxBypass, BYPASS_MINT_AMOUNT). For an amount within a
// u128 but near its top, that mint is more than the mint call takes (a u128; an i128 in Hydration's
// currencies.update_balance): polkadot.js's createType threw "Input too large" and /x-transfer
// answered 500 InternalError. The amount is the caller's to
// change, so it is a 400 that says why and names the field.
//
// Still needed? Read sdk-core's wrapTxBypass: if it caps the mint at a u128 (or skips the bypass
// mint for amounts that leave no room), the patch can go. Remove it and run the guard test.
//
// Guarded by: test/http/transfer.test.ts "an amount of the top of a u128 on a route whose fees are
// priced by a dry run: 400 naming currency.amount, in both families".
import { badRequest } from '../../errors';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface SdkTxApi {
  deserializeExtrinsics(serialized: { module: string; method: string }): unknown;
}

/** polkadot.js refusing a value past a u128 or an i128 (the message of @polkadot/types-codec's AbstractInt). */
const PAST_128_BITS = /[ui]128: Input too large\. Found input with \d+ bits, expected 12[78]/;

export function refuseAmountsPastTheDryRunMint(): void {
  const proto = apiPrototypeOf<SdkTxApi>(sdk);
  const deserializeExtrinsics = proto.deserializeExtrinsics;
  proto.deserializeExtrinsics = function (this: SdkTxApi, serialized) {
    try {
      return deserializeExtrinsics.call(this, serialized);
    } catch (error) {
      if (!(error instanceof Error) || !PAST_128_BITS.test(error.message)) throw error;
      const message = `The amount is too large to price this transfer's fees: the fees are priced by a dry run that first gives the sender the amount plus 1,000 of the asset, more than the chain's mint call takes (${serialized.module}.${serialized.method}). Send a smaller amount.`;
      throw badRequest('ValidationError', message, [{ path: 'body.currency.amount', message }]);
    }
  };
}
