// Patch: balances read from an `Account` storage entry reach sdk-core as bigints.
//
// Corrects: sdk-pjs 11 reads storage with `toJSON()`, which gives a balance as a number (a hex
// string above 2^52). sdk-core's pallet-assets, Fungibles and Balances readers return `balance` /
// `free` from it unconverted, and then subtract bigints from them: transfer info and the dry-run
// preview of USDt on Asset Hub failed with "Cannot mix BigInt and other types". The `balance` and
// `free` fields of an `Account` entry are handed on as bigints (what every other reader of the SDK
// converts them to).
//
// Still needed? Read sdk-pjs's PolkadotJsApi.queryState and sdk-core's asset balance readers: if
// they convert (`BigInt(...)`) what they read, the patch can go. Remove it and run the guard tests.
//
// Guarded by: test/http/preflight-assets.test.ts, all of "/%s pre-flight of USDt (pallet-assets)
// from AssetHubPolkadot to Hydration" (transfer-info and the amount rules, balance above 2^52,
// dry-run-preview with mintFeeAssets).
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface SdkStateApi {
  queryState(serialized: { module: string; method: string; params: unknown[] }): Promise<unknown>;
}

export function readAccountBalancesAsBigInt(): void {
  const proto = apiPrototypeOf<SdkStateApi>(sdk);
  const queryState = proto.queryState;
  proto.queryState = async function (this: SdkStateApi, serialized) {
    const value = await queryState.call(this, serialized);
    if (serialized.method !== 'Account' || typeof value !== 'object' || value === null) return value;
    const entry = value as Record<string, unknown>;
    for (const field of ['balance', 'free']) {
      const v = entry[field];
      if (typeof v === 'number' || (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v))) entry[field] = BigInt(v);
    }
    return entry;
  };
}
