// Patch: within one pre-flight query the SDK builds each call once, prices each transaction once and
// looks each asset up once.
//
// Corrects: sdk-core 11.14.8's fee queries (getXcmFee, getOriginXcmFee, transfer info and the
// amounts built on them) run their whole pricing twice, once as the sender and once forced with a
// root origin (`getBypassResultWithRetries`), and the second run asks again what the first asked:
// the destination's reverse transfer is built from the same JSON (the teleport to Asset Hub: one
// build of 1 ms of CPU for the reverse call alone), the same bytes are priced with `paymentInfo`
// (signing info, a fake signature, the runtime call and its decoding) on the origin and on the
// destination, and the registry is searched again for the same assets (by location a lookup
// compares the location with every asset of the chain: 0.3-0.7 ms each on Asset Hub, four a
// query, two of them repeats). Those repeats were a third of /xcm-fee's CPU. Inside a query's
// scope (`withQueryMemo`, entered by the pre-flight service for each request): a call built from
// the same JSON on the same connection is the call built the first time (the same object: the SDK
// reads it, signs only copies); the payment info of the same transaction object for the same
// address is the answer the chain gave the first time; an asset looked up with the same (chain,
// selector, destination) is the one found the first time (the request's custom assets stay in the
// registry for the whole scope). A runtime call or storage read sent again on the same connection
// with the same parameters (`askEachReadOncePerQuery`, on every pooled provider) gets the first
// answer: the SDK dry-runs and prices the same bytes several times in one build or query (the
// fee-calculation call of a transfer it prices by dry runs, the reverse transfer's payment info,
// the recipient's account read for its balance and again for the fake signature's nonce); a
// node's error answer stands too, a failed connection does not. The same bytes at the node's head
// a few milliseconds later would get the same answer unless a block came in between: the query
// then reads one state, not two. The scope ends with the request (its deadline bounds it): nothing
// outlives it. One exception to "nothing is shared between requests": polkadot.js goes on in its
// socket's callbacks in the context of the query that dialled the connection, so a read sent from
// there may use that query's memo while it runs (the same read at the same head, milliseconds
// apart), and none once it ended.
//
// Still needed? Read sdk-core's getXcmFeeInternal / getOriginXcmFee: if the forced run no longer
// repeats the first one's builds and payment-info queries (or the SDK caches them itself), the
// patch can go. Remove it and run the guard tests.
//
// Guarded by: test/http/preflight-query-memo.test.ts (builds and payment info), test/sdk/query-memo.test.ts
// (asset lookups, by findAssetInfo and findAssetInfoOrThrow), test/http/build-repeated-reads.test.ts (runtime calls and storage reads).
import { AsyncLocalStorage } from 'node:async_hooks';
import { apiPrototypeOf } from '../api-prototype';
import { sdk, sdkAssetLookups } from '../load';
import { leanPricing } from './lean-pricing';

interface Serialized {
  module: string;
  method: string;
  params: Record<string, unknown>;
}

interface SdkTxApi {
  /** The connection the SDK's API was initialised with (a pooled ApiPromise). */
  readonly api?: object;
  /** The chain it was initialised for. */
  readonly _chain?: string;
  deserializeExtrinsics(serialized: Serialized): unknown;
  calculateTransactionFee(tx: object, address: string): Promise<bigint>;
}

type FindAssetInfo = (chain: string, currency: object, destination: string | null) => unknown;

/** What one query has built (by connection, then by call JSON), priced (by transaction object, then address) and found in the registry. */
interface QueryMemo {
  readonly calls: Map<object, Map<string, unknown>>;
  readonly fees: WeakMap<object, Map<string, Promise<bigint>>>;
  readonly assets: Map<string, unknown>;
  /** Runtime calls and storage reads, by provider, then method and parameters. */
  readonly reads: WeakMap<object, Map<string, Promise<unknown>>>;
  /** Until the query ends: a connection dialled inside it keeps its context for its socket's callbacks, where polkadot.js's observables go on. */
  open: boolean;
}

const scope = new AsyncLocalStorage<QueryMemo>();

/** Runs `work` (one pre-flight query) with its own memo of builds and payment info. */
export function withQueryMemo<T>(work: () => Promise<T>): Promise<T> {
  const memo: QueryMemo = { calls: new Map(), fees: new WeakMap(), assets: new Map(), reads: new WeakMap(), open: true };
  return scope.run(memo, async () => {
    try {
      return await work();
    } finally {
      memo.open = false;
    }
  });
}

/** The memo of the query in progress here, if any (not one that ended). */
const current = (): QueryMemo | undefined => {
  const memo = scope.getStore();
  return memo?.open ? memo : undefined;
};

type Send = (method: string, params: unknown[], ...rest: unknown[]) => Promise<unknown>;

/** What a node answers from its state: the same parameters, the same answer at the same block. */
const READS = new Set(['state_call', 'state_queryStorageAt', 'state_getStorage', 'state_getStorageAt']);

/** An error the node answered (a JSON-RPC error: polkadot.js's RpcError has its code), not a failed connection or a timeout. */
const answeredByTheNode = (error: unknown): boolean => error instanceof Error && typeof (error as { code?: unknown }).code === 'number';

/** Within a query's scope, `provider` sends each read (method and parameters) once; outside, every read goes out. */
export function askEachReadOncePerQuery(provider: { send: Send }): void {
  const send = provider.send.bind(provider);
  provider.send = (method, params, ...rest) => {
    const memo = current();
    // rest[1] is a subscription's callback; the metadata is the connection's, not a query's.
    if (!memo || !READS.has(method) || rest[1] !== undefined || (method === 'state_call' && String(params[0]).startsWith('Metadata_'))) return send(method, params, ...rest);
    let asked = memo.reads.get(provider);
    if (!asked) memo.reads.set(provider, (asked = new Map()));
    const key = JSON.stringify([method, params]);
    const known = asked.get(key);
    if (known) return known;
    const answer = send(method, params, ...rest);
    asked.set(key, answer);
    answer.catch((error: unknown) => {
      if (!answeredByTheNode(error)) asked.delete(key);
    });
    return answer;
  };
}

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A key that only equal JSON values share (bigints marked apart from strings and numbers), or
 * undefined when the value holds anything else (a codec, a Uint8Array, a Map): those are never
 * taken as equal here.
 */
function jsonKey(value: unknown): string | undefined {
  let plain = true;
  const key = JSON.stringify(value, (_name, v: unknown) => {
    if (typeof v === 'bigint') return { $bigint: v.toString() };
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && !isPlainObject(v)) plain = false;
    if (typeof v === 'function' || typeof v === 'symbol') plain = false;
    return v;
  });
  return plain ? key : undefined;
}

export function memoizeWithinAQuery(): void {
  const proto = apiPrototypeOf<SdkTxApi>(sdk);
  const { deserializeExtrinsics, calculateTransactionFee } = proto;

  proto.deserializeExtrinsics = function (this: SdkTxApi, serialized) {
    const memo = current();
    const key = memo && this.api ? jsonKey([this._chain, serialized.module, serialized.method, serialized.params]) : undefined;
    if (!memo || !this.api || key === undefined) return deserializeExtrinsics.call(this, serialized);
    let built = memo.calls.get(this.api);
    if (!built) memo.calls.set(this.api, (built = new Map()));
    if (built.has(key)) return built.get(key);
    const call = deserializeExtrinsics.call(this, serialized);
    built.set(key, call);
    return call;
  };

  proto.calculateTransactionFee = function (this: SdkTxApi, tx, address) {
    const memo = current();
    if (!memo || typeof tx !== 'object' || tx === null) return calculateTransactionFee.call(this, tx, address);
    let byAddress = memo.fees.get(tx);
    if (!byAddress) memo.fees.set(tx, (byAddress = new Map()));
    const asked = byAddress.get(address);
    if (asked) return asked;
    const fee = calculateTransactionFee.call(this, tx, address);
    byAddress.set(address, fee);
    // A failure is not kept: the next ask goes to the chain, as it did without the memo.
    fee.catch(() => byAddress.delete(address));
    return fee;
  };

  // sdk-core calls both lookups through the module's exports (findAssetInfoOrThrow calls
  // findAssetInfo inside the module, unmemoized, so it is wrapped too: the fee walk of a transfer
  // priced by dry runs asks it three times a build, 5% of the build's CPU). Both share one memo: an
  // asset found is found by either; a lookup that found none is asked again by findAssetInfoOrThrow,
  // which throws its own error.
  const findAssetInfo = sdkAssetLookups['findAssetInfo'] as FindAssetInfo;
  const findAssetInfoOrThrow = sdkAssetLookups['findAssetInfoOrThrow'] as FindAssetInfo;
  const memoized =
    (lookup: FindAssetInfo, found: (asset: unknown) => boolean): FindAssetInfo =>
    (chain, currency, destination) => {
      const memo = current();
      const key = memo ? jsonKey([chain, currency, destination]) : undefined;
      if (!memo || key === undefined) return lookup(chain, currency, destination);
      if (memo.assets.has(key) && found(memo.assets.get(key))) return memo.assets.get(key);
      const asset = lookup(chain, currency, destination);
      memo.assets.set(key, asset);
      return asset;
    };
  sdkAssetLookups['findAssetInfo'] = memoized(findAssetInfo, () => true);
  const leanFindOrThrow = memoized(findAssetInfoOrThrow, (asset) => asset !== null && asset !== undefined);
  sdkAssetLookups['findAssetInfoOrThrow'] = ((chain, currency, destination) =>
    (leanPricing.on ? leanFindOrThrow : findAssetInfoOrThrow)(chain, currency, destination)) satisfies FindAssetInfo;
}
