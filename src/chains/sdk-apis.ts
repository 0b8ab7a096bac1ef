import { AsyncLocalStorage } from 'node:async_hooks';
import type { TAssetInfo, TChain } from '@paraspell/sdk-pjs';
import { sdk } from '../sdk';
import type { ConnectionPool, Lease } from './pool';

/**
 * What one request hands the SDK: `sdk.Builder({ apiOverrides, development: true })`.
 * `release()` returns every connection the SDK borrowed through it.
 */
export interface ChainScope {
  readonly apiOverrides: Record<string, unknown>;
  /** The connections borrowed so far (to name the chain a failure came from). */
  readonly leases: readonly Lease[];
  release(): void;
}

const noop = (): void => undefined;

/**
 * Routes every chain the SDK touches through the pool. The SDK (PolkadotJsApi.init) reads
 * `apiOverrides[chain]` lazily, also for hop and destination chains (`clone()` reuses the
 * config), and awaits a value that is neither a string nor an array: a Promise of an
 * ApiPromise is that value. A failure (unknown chain, pool error) is the Promise's
 * rejection, which the SDK's `init` propagates to the caller.
 */
export function createChainScope(
  pool: ConnectionPool,
  resolveEndpoints: (chain: string) => readonly string[],
  signal?: AbortSignal,
): ChainScope {
  const apis = new Map<string, Promise<unknown>>();
  const leases: Lease[] = [];
  let released = false;

  const borrow = async (chain: string): Promise<unknown> => {
    if (released) throw new Error(`chain ${chain} requested after its scope was released`);
    const lease = await pool.acquire(chain, resolveEndpoints(chain), signal);
    // A borrow that lands after release() must not keep the connection leased.
    if (released) lease.release();
    else leases.push(lease);
    return lease.api;
  };

  const apiOverrides = new Proxy<Record<string, unknown>>(
    {},
    {
      get(target, chain) {
        if (typeof chain !== 'string') return Reflect.get(target, chain);
        let api = apis.get(chain);
        if (!api) {
          api = borrow(chain);
          // The SDK also reads the override without awaiting it (in disconnect()); the
          // awaiting reader still sees a rejection, the others must not make it unhandled.
          api.catch(noop);
          apis.set(chain, api);
        }
        return api;
      },
    },
  );

  return {
    apiOverrides,
    leases,
    release() {
      released = true;
      leases.forEach((lease) => lease.release());
    },
  };
}

interface SdkChainApi {
  clone(): SdkChainApi;
  init(chain: string): Promise<void>;
  createApiForChain(chain: string): Promise<SdkChainApi>;
}

let patched = false;

/** The prototype of sdk-pjs's chain API class (what its builders call), where the patches below go. */
function sdkApiPrototype<T>(): T {
  return Object.getPrototypeOf((sdk.Builder({}) as unknown as { api: object }).api) as T;
}

/**
 * sdk-pjs 11 opens some chains (AssetHubPolkadot for transfers to Ethereum from Hydration,
 * Bifrost and Moonbeam) with `createApiForChain`, which drops the caller's config and dials the
 * public endpoints, outside the pool and forever on failure. Make it clone the config instead, as
 * every other hop does, so those chains are pooled, deadlined and honour development mode.
 */
export function routeAllSdkChainsThroughOverrides(): void {
  if (patched) return;
  const proto = sdkApiPrototype<SdkChainApi>();
  proto.createApiForChain = async function createApiForChain(this: SdkChainApi, chain: string) {
    const api = this.clone();
    await api.init(chain);
    return api;
  };
  patched = true;
}

interface SdkStateApi {
  queryState(serialized: { module: string; method: string; params: unknown[] }): Promise<unknown>;
}

let balancesPatched = false;

/**
 * sdk-pjs 11 reads storage with `toJSON()`, which gives a balance as a number (a hex string above
 * 2^52). sdk-core's pallet-assets, Fungibles and Balances readers return `balance` / `free` from
 * it unconverted, and then subtract bigints from them: transfer info and the dry-run preview of
 * USDt on Asset Hub failed with "Cannot mix BigInt and other types". Hand those fields of an
 * `Account` entry on as bigints (what every other reader of the SDK converts them to).
 */
export function readAccountBalancesAsBigInt(): void {
  if (balancesPatched) return;
  const proto = sdkApiPrototype<SdkStateApi>();
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
  balancesPatched = true;
}

interface SdkFeeApi {
  getXcmPaymentApiFee(chain: string, localXcm: unknown, forwardedXcm: unknown, asset: { symbol: string }): Promise<unknown>;
}

let feeRefusalsPatched = false;

/**
 * sdk-pjs 11 prices a dry-run leg with XcmPaymentApi and converts the answer with
 * `BigInt(answer.ok)`: a chain that refuses the asset (`Err`, e.g. AssetNotFound) made every
 * pre-flight query through it a TypeError, answered 500. Report it as what it is, a fee the SDK
 * cannot compute on that chain (400 UnableToComputeError naming the chain and the asset).
 */
export function reportFeeRefusalsAsUnableToCompute(): void {
  if (feeRefusalsPatched) return;
  const proto = sdkApiPrototype<SdkFeeApi>();
  const getXcmPaymentApiFee = proto.getXcmPaymentApiFee;
  proto.getXcmPaymentApiFee = async function (this: SdkFeeApi, chain, localXcm, forwardedXcm, asset) {
    try {
      return await getXcmPaymentApiFee.call(this, chain, localXcm, forwardedXcm, asset);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new sdk.UnableToComputeError(`The XCM fee on ${chain} cannot be computed: its XcmPaymentApi does not price fees in ${asset.symbol}`);
    }
  };
  feeRefusalsPatched = true;
}

interface DryRunCallOptions {
  chain: TChain;
  feeAsset?: TAssetInfo;
  /** `sentAssetMintMode: 'bypass'` marks the dry run of the builder's `xcmFormatCheck`. */
  bypassOptions?: { sentAssetMintMode?: string };
}

type RuntimeCall = (...args: unknown[]) => Promise<{ toJSON(): unknown }>;

interface SdkDryRunApi {
  api?: { call?: Record<string, Record<string, unknown> | undefined> };
  getDryRunCall(options: DryRunCallOptions): Promise<{ success: boolean }>;
  getXcmPaymentApiFee(...args: unknown[]): Promise<unknown>;
}

/** The SDK's origin dry run in progress: whether XcmPaymentApi priced its fee. */
const originDryRun = new AsyncLocalStorage<{ priced: boolean }>();
/** The SDK pricing a dry-run leg (origin, hop or destination) with XcmPaymentApi. */
const xcmPaymentPricing = new AsyncLocalStorage<true>();
const amended = Symbol('amended for the SDK');

/**
 * Inside `scope` (the SDK's own use of the runtime call), `section[method]` answers a Codec whose
 * `toJSON().ok` has been passed through `amend` (the pooled connection's decorated runtime call is
 * wrapped once; a runtime upgrade decorates new sections, wrapped again on their first use).
 */
function amendJson(section: Record<string, unknown> | undefined, method: string, scope: AsyncLocalStorage<unknown>, amend: (ok: Record<string, unknown>) => void): void {
  const original = section?.[method] as (RuntimeCall & { [amended]?: true }) | undefined;
  if (!section || typeof original !== 'function' || original[amended]) return;
  const wrapped: RuntimeCall = async (...args) => {
    const response = await original.apply(section, args);
    if (!scope.getStore()) return response;
    const toJSON = response.toJSON.bind(response);
    response.toJSON = () => {
      const json = toJSON() as { ok?: Record<string, unknown> } | null;
      if (json?.ok) amend(json.ok);
      return json;
    };
    return response;
  };
  // The decorated method is a read-only (configurable) property; keep its `meta` and friends.
  Object.defineProperty(section, method, { value: Object.assign(wrapped, original, { [amended]: true }), configurable: true, enumerable: true });
}

let xcmPaymentPricingPatched = false;

/**
 * sdk-pjs 11 prices the origin's fee with XcmPaymentApi (the dry run's local XCM weighed, the
 * weight priced in the fee asset) only when `dryRunCall(...).toJSON().ok.local_xcm` is set, a key
 * polkadot.js never produces (it writes `localXcm`). So with a `feeAsset` (e.g. USDt on Asset Hub)
 * the origin fee was the native payment-info figure (DOT planck) labelled USDt, in pre-flight
 * answers and in the execute XCM the builder makes for Asset Hub and Hydration with a feeAsset
 * (10 USDt was "too low" for an 18 USDt fee); and Asset Hub -> Ethereum was never priced by
 * XcmPaymentApi. Give the SDK's origin dry run the key it reads (tracked with AsyncLocalStorage),
 * and its XcmPaymentApi pricing (origin, hops and destination) the delivery-fee version key it
 * reads (below). Where the chain still cannot price the fee asset (no XcmPaymentApi, no local
 * XCM), a native figure must not pass for it: that is an UnableToComputeError naming the chain. A
 * chain refusing the asset is one already (reportFeeRefusalsAsUnableToCompute).
 */
export function priceFeesWithXcmPaymentApi(): void {
  if (xcmPaymentPricingPatched) return;
  const proto = sdkApiPrototype<SdkDryRunApi>();
  const { getDryRunCall, getXcmPaymentApiFee } = proto;
  proto.getXcmPaymentApiFee = async function (this: SdkDryRunApi, ...args) {
    // The SDK reads delivery fees as `ok.v4 ?? ok.v3`, for the origin and for every hop and the
    // destination it prices. A chain answers in the version it was asked in, V5 for the XCM a V5
    // runtime forwards: the delivery onward from a hop (Asset Hub to Hydration) counted 0. Give a
    // V5 answer under `v4` too. A versioned answer holds one version, and a V4/V3 one is left as it
    // is, so nothing counts twice (the dry run's FeesPaid events are read only for a leg
    // XcmPaymentApi did not price).
    amendJson(this.api?.call?.['xcmPaymentApi'], 'queryDeliveryFees', xcmPaymentPricing, (ok) => {
      if (ok['v5'] !== undefined && ok['v4'] === undefined) ok['v4'] = ok['v5'];
    });
    const fee = await xcmPaymentPricing.run(true, () => getXcmPaymentApiFee.apply(this, args));
    const run = originDryRun.getStore();
    if (run && typeof fee === 'bigint') run.priced = true;
    return fee;
  };
  proto.getDryRunCall = async function (this: SdkDryRunApi, options) {
    // xcmFormatCheck reads only whether the message passes: its fee is never shown, so a transfer
    // is not refused for a fee asset the chain cannot price.
    if (options.bypassOptions?.sentAssetMintMode === 'bypass') return getDryRunCall.call(this, options);
    amendJson(this.api?.call?.['dryRunApi'], 'dryRunCall', originDryRun, (ok) => {
      if (ok['localXcm'] != null) ok['local_xcm'] = ok['localXcm'];
    });
    const run = { priced: false };
    const result = await originDryRun.run(run, () => getDryRunCall.call(this, options));
    const { chain, feeAsset } = options;
    if (result.success && feeAsset && !run.priced) {
      const native = sdk.findNativeAssetInfoOrThrow(chain);
      if (!sdk.isAssetXcEqual(feeAsset, native)) {
        throw new sdk.UnableToComputeError(
          `The XCM fee on ${chain} cannot be computed in ${feeAsset.symbol}: its XcmPaymentApi did not price the dry run, and payment info gives fees in ${native.symbol} only`,
        );
      }
    }
    return result;
  };
  xcmPaymentPricingPatched = true;
}
