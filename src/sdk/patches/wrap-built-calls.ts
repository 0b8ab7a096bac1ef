// Patch: a batch or dispatchAs wrap takes the calls the SDK already built, not copies made again.
//
// Corrects: sdk-pjs 11.14.8's `callBatchMethod` and `callDispatchAsMethod` hand polkadot.js the
// transactions themselves (`api.tx.utility.batchAll(txs)`, `dispatchAs(origin, tx)`). A transaction
// is not an instance of the registry's `Call`, so @polkadot/types 16 makes each inner call again
// from its arguments (`decodeCallViaObject`: a new call object, its argument struct, the metadata
// lookups), where a `Call` instance (the transaction's `method`) is taken as it is (`Vec`'s and
// `Struct`'s `instanceof` check). The SDK wraps on every fee it prices with a forced origin: the
// mints and the transfer in `batchAll`, the transfer in `dispatchAs` (`wrapTxBypass`), for each
// transfer it prices by dry runs and for each /xcm-fee answer. The bytes are the same either way:
// the call made again encodes the same call index and arguments.
//
// Still needed? Read sdk-pjs's `callBatchMethod` / `callDispatchAsMethod`: if they pass `tx.method`
// (or polkadot.js takes an extrinsic's call as it is), the patch can go. Remove it and run the
// guard tests.
//
// Guarded by: test/sdk/wrap-built-calls.test.ts (no call made again, the same bytes),
// test/http/priced-builds.test.ts (the priced routes' answers with and without the lean patches).
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';
import { leanPricing } from './lean-pricing';

interface SdkWrapApi {
  callBatchMethod(calls: unknown[], mode: unknown): unknown;
  callDispatchAsMethod(call: unknown, address: string): unknown;
}

/** The already built call of a polkadot.js transaction (its `method`), or the value as it came. */
function builtCall(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('method' in value)) return value;
  const call = (value as { method: unknown }).method;
  return typeof call === 'object' && call !== null && 'callIndex' in call && 'args' in call ? call : value;
}

export function wrapTheBuiltCalls(): void {
  const proto = apiPrototypeOf<SdkWrapApi>(sdk);
  const { callBatchMethod, callDispatchAsMethod } = proto;
  proto.callBatchMethod = function (this: SdkWrapApi, calls, mode) {
    return callBatchMethod.call(this, leanPricing.on && Array.isArray(calls) ? calls.map(builtCall) : calls, mode);
  };
  proto.callDispatchAsMethod = function (this: SdkWrapApi, call, address) {
    return callDispatchAsMethod.call(this, leanPricing.on ? builtCall(call) : call, address);
  };
}
