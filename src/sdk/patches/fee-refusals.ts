// Patch: a chain's XcmPaymentApi refusing the fee asset is an UnableToComputeError, not a TypeError.
//
// Corrects: sdk-pjs 11 prices a dry-run leg with XcmPaymentApi and converts the answer with
// `BigInt(answer.ok)`: a chain that refuses the asset (`Err`, e.g. AssetNotFound) made every
// pre-flight query through it a TypeError, answered 500. It is reported as what it is, a fee the
// SDK cannot compute on that chain (400 UnableToComputeError naming the chain and the asset).
//
// Still needed? Read sdk-pjs's PolkadotJsApi.getXcmPaymentApiFee: if it checks the result for
// `Err` before converting, the patch can go. Remove it and run the guard tests.
//
// Guarded by: test/http/preflight.test.ts "/%s pre-flight through the real SDK over a hop" "a
// destination whose XcmPaymentApi refuses the asset: ..."; test/http/preflight-fee-asset.test.ts
// "Asset Hub refuses USDt for fees: ...".
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface SdkFeeApi {
  getXcmPaymentApiFee(chain: string, localXcm: unknown, forwardedXcm: unknown, asset: { symbol: string }): Promise<unknown>;
}

export function reportFeeRefusalsAsUnableToCompute(): void {
  const proto = apiPrototypeOf<SdkFeeApi>(sdk);
  const getXcmPaymentApiFee = proto.getXcmPaymentApiFee;
  proto.getXcmPaymentApiFee = async function (this: SdkFeeApi, chain, localXcm, forwardedXcm, asset) {
    try {
      return await getXcmPaymentApiFee.call(this, chain, localXcm, forwardedXcm, asset);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new sdk.UnableToComputeError(`The XCM fee on ${chain} cannot be computed: its XcmPaymentApi does not price fees in ${asset.symbol}`);
    }
  };
}
